import { describe, expect, it } from 'vitest';
import { type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { collect, endOf, FAST, folded } from '../harness.js';
import { sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';
import { useAgentRig } from '../../agent-rig.js';

const REPLY = 'One JSON answer, no stream.';
const TASK = {
  id: 'T',
  contextId: 'C',
  status: { state: 'TASK_STATE_COMPLETED' },
  artifacts: [{ artifactId: 'A', parts: [{ text: REPLY }] }],
};

const LEGACY_TASK = {
  kind: 'task',
  id: 'T',
  contextId: 'C',
  status: { state: 'completed' },
  artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: REPLY }] }],
};

/**
 * Agents that answer a stream call with one `application/json` body, as they answer a blocking
 * send: a JSON-RPC envelope, or an HTTP+JSON object. Each stream call and its answer are counted.
 */
describe('a stream call answered with a plain JSON body', () => {
  let http: NodeFetch;
  let agent: RawAgent;
  const calls: string[] = [];
  useAgentRig(
    () =>
      startRawAgent((req, res, { base, rpc }) => {
        const path = req.url ?? '';
        if (req.method === 'GET') {
          const binding = path.startsWith('/rest/') ? 'HTTP+JSON' : 'JSONRPC';
          const legacy = path.startsWith('/v03/');
          const url = `${base}${binding === 'JSONRPC' ? (legacy ? 'v03rpc' : 'rpc') : 'rest'}`;
          return sendJson(res, {
            name: 'unary only',
            supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: legacy ? '0.3' : '1.0' }],
            capabilities: { streaming: true },
          });
        }
        calls.push(rpc && 'method' in rpc && rpc.method ? rpc.method : `POST ${path}`);
        if (path.startsWith('/rest/')) return sendJson(res, { task: TASK });
        if (rpc?.method === 'SendStreamingMessage') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { task: TASK } });
        if (rpc?.method === 'message/stream') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: LEGACY_TASK });
        return sendJson(res, { jsonrpc: '2.0', id: rpc?.id, error: { code: -32601, message: 'Method not found' } });
      }),
    (a, h) => ([agent, http] = [a, h]),
  );

  for (const [name, path, reader, method] of [
    ['v1.0 JSON-RPC, our reader', '', 'a4h', 'SendStreamingMessage'],
    ['v1.0 JSON-RPC, the SDK reader', '', 'sdk', 'SendStreamingMessage'],
    ['v1.0 HTTP+JSON', 'rest/', 'a4h', 'POST /rest/message:stream'],
    ['v0.3 JSON-RPC, our reader', 'v03/', 'a4h', 'message/stream'],
    ['v0.3 JSON-RPC, the SDK reader', 'v03/', 'sdk', 'message/stream'],
  ] as const) {
    it(`${name}: read as the answer it is, the whole reply once, one call, nothing cancelled`, async () => {
      calls.length = 0;
      const ports = createSdkPorts({ fetch: http.fetch, reader });
      const events = await collect(runTurn(ports(`${agent.url}${path}`), { text: 'hi' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY, taskId: 'T' });
      expect(folded(events)).toBe(REPLY);
      expect(events.filter((e) => e.type === 'fallback' || e.type === 'reconnecting' || e.type === 'polling')).toEqual([]);
      expect(calls).toEqual([method]);
    });
  }
});
