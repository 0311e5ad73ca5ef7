import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';

/** A v1.0 task as an SDK server writes it. */
const task = (id: string, state: string) => ({
  id,
  contextId: 'ctx-r',
  status: { state, timestamp: '2026-12-02T00:00:00.000Z' },
  artifacts: [],
  history: [],
});
const page = { tasks: [task('t-1', 'TASK_STATE_INPUT_REQUIRED'), task('t-2', 'TASK_STATE_COMPLETED')], nextPageToken: 'p2', pageSize: 2 };
const big = { tasks: [{ ...task('t-big', 'TASK_STATE_WORKING'), metadata: { pad: 'x'.repeat(20_000) } }], nextPageToken: '', pageSize: 1 };

/** How the agent answers ListTasks, by the case named in the interface's path. */
const ANSWERS: Record<string, (res: import('node:http').ServerResponse, id: number) => void> = {
  page: (res, id) => sendJson(res, { jsonrpc: '2.0', id, result: page }),
  'id-as-text': (res, id) => sendJson(res, { jsonrpc: '2.0', id: String(id), result: page }),
  'another-id': (res, id) => sendJson(res, { jsonrpc: '2.0', id: id + 1000, result: page }),
  'no-jsonrpc': (res, id) => sendJson(res, { id, result: page }),
  'method-not-found': (res, id) => sendJson(res, { jsonrpc: '2.0', id, error: { code: -32601, message: 'Method not found' } }),
  'http-500-rpc-error': (res, id) => sendJson(res, { jsonrpc: '2.0', id, error: { code: -32603, message: 'boom' } }, {}, 500),
  'http-503-retry-after': (res) => res.writeHead(503, { 'retry-after': '3', 'content-type': 'text/plain' }).end('busy'),
  'http-404': (res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('no such path'),
  'not-json': (res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>hello</html>'),
  'large-declared': (res, id) => sendJson(res, { jsonrpc: '2.0', id, result: big }),
  'large-counted': (res, id) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(JSON.stringify({ jsonrpc: '2.0', id, result: big }));
    res.end();
  },
};

/** What a listing came to, in the terms the ladder reads (an error's message may be worded by either reader). */
async function outcome(ports: ReturnType<typeof createSdkPorts>, url: string): Promise<unknown> {
  try {
    return { page: await lastValueFrom(ports(url).listTasks!('ctx-r', { pageSize: 2 })) };
  } catch (error) {
    const { kind, retryable, status, code, retryAfterMs, operation, agent } = error as Record<string, unknown>;
    return { error: { kind, retryable, status, code, retryAfterMs, operation, agent } };
  }
}

describe('ListTasks read by our reader (v1.0 JSON-RPC): the page and the errors the SDK’s client gives', () => {
  let agent: RawAgent;
  let http: NodeFetch;
  beforeAll(async () => {
    agent = await startRawAgent((req, res, { base, rpc }) => {
      const name = /^\/([a-z0-9-]+)\//.exec(req.url ?? '')?.[1] ?? '';
      if (rpc === undefined) {
        return sendJson(res, {
          name: `lists ${name}`,
          version: '1',
          capabilities: { streaming: true },
          defaultInputModes: ['text/plain'],
          defaultOutputModes: ['text/plain'],
          skills: [],
          supportedInterfaces: [{ url: `${base}${name}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        });
      }
      if (rpc.method !== 'ListTasks') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'no' } });
      ANSWERS[name]!(res, rpc.id);
    });
    http = createNodeFetch();
  });
  afterAll(async () => {
    await Promise.all([agent.close(), http.close()]);
  });

  for (const name of Object.keys(ANSWERS)) {
    it(`${name}: as through the SDK's client`, async () => {
      const bounds = { maxResponseBytes: 10_000 };
      const ours = await outcome(createSdkPorts({ fetch: http.fetch, ...bounds }), `${agent.url}${name}/`);
      const sdk = await outcome(createSdkPorts({ fetch: http.fetch, reader: 'sdk', ...bounds }), `${agent.url}${name}/`);
      expect(ours).toEqual(sdk);
    });
  }

  it('a page is read whole: its tasks mapped, the next page named', async () => {
    const got = await outcome(createSdkPorts({ fetch: http.fetch }), `${agent.url}page/`);
    expect(got).toMatchObject({
      page: {
        tasks: [
          { id: 't-1', status: { state: 'input-required' } },
          { id: 't-2', status: { state: 'completed' } },
        ],
        nextPageToken: 'p2',
      },
    });
  });

  it('an answer past maxResponseBytes is refused, declared or counted', async () => {
    for (const name of ['large-declared', 'large-counted']) {
      const got = await outcome(createSdkPorts({ fetch: http.fetch, maxResponseBytes: 10_000 }), `${agent.url}${name}/`);
      expect(got).toMatchObject({ error: { kind: 'protocol', operation: 'list-tasks' } });
    }
  });
});
