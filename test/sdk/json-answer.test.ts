import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { runTurn } from '../../src/turn/turn.js';
import { collect, endOf, FAST, folded } from './harness.js';
import { sendJson, startRawAgent, type RawAgent } from './raw-agent.js';

const REPLY = 'One JSON answer, no stream.';
const TASK = {
  id: 'T',
  contextId: 'C',
  status: { state: 'TASK_STATE_COMPLETED' },
  artifacts: [{ artifactId: 'A', parts: [{ text: REPLY }] }],
};

/**
 * Agents that answer a stream call with one `application/json` body, as they answer a blocking
 * send: a JSON-RPC envelope, or an HTTP+JSON object. Each stream call and its answer are counted.
 */
describe('a stream call answered with a plain JSON body', () => {
  let http: NodeFetch;
  let agent: RawAgent;
  const calls: string[] = [];
  beforeAll(async () => {
    http = createNodeFetch();
    agent = await startRawAgent((req, res, { base, rpc }) => {
      const path = req.url ?? '';
      if (req.method === 'GET') {
        const binding = path.startsWith('/rest/') ? 'HTTP+JSON' : 'JSONRPC';
        const url = `${base}${binding === 'JSONRPC' ? 'rpc' : 'rest'}`;
        return sendJson(res, {
          name: 'unary only',
          supportedInterfaces: [{ url, protocolBinding: binding, protocolVersion: '1.0' }],
          capabilities: { streaming: true },
        });
      }
      calls.push(rpc && 'method' in rpc && rpc.method ? rpc.method : `POST ${path}`);
      if (path.startsWith('/rest/')) return sendJson(res, { task: TASK });
      if (rpc?.method === 'SendStreamingMessage') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { task: TASK } });
      return sendJson(res, { jsonrpc: '2.0', id: rpc?.id, error: { code: -32601, message: 'Method not found' } });
    });
  });
  afterAll(async () => {
    await agent.close();
    await http.close();
  });

  for (const [name, path, reader] of [
    ['JSON-RPC, our reader', '', 'a4h'],
    ['JSON-RPC, the SDK reader', '', 'sdk'],
    ['HTTP+JSON', 'rest/', 'a4h'],
  ] as const) {
    it(`${name}: read as the answer it is, the whole reply once, one call, nothing cancelled`, async () => {
      calls.length = 0;
      const ports = createSdkPorts({ fetch: http.fetch, reader });
      const events = await collect(runTurn(ports(`${agent.url}${path}`), { text: 'hi' }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY, taskId: 'T' });
      expect(folded(events)).toBe(REPLY);
      expect(events.filter((e) => e.type === 'fallback' || e.type === 'reconnecting' || e.type === 'polling')).toEqual([]);
      expect(calls).toEqual([path === '' ? 'SendStreamingMessage' : 'POST /rest/message:stream']);
    });
  }
});
