/**
 * An agent's error with a generic code (-32000, -32603) whose data names an A2A error — `data.a2aCode`
 * as `@reactive-agents/a2a` 0.9.0 sends it, or a v1.0 `google.rpc.ErrorInfo` reason — is classified by
 * that name, on every JSON-RPC shape: a unary answer (the SDK's client, under both readers) and a
 * stream's error frame (our reader and the SDK's), v1.0 and v0.3. The agent's code, the name and its
 * words stay on the error; the SDK's typed error of that name is its cause, as the CLI reads it.
 */
import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { leastCard, sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';

const errorInfo = (reason: string, domain = 'a2a-protocol.org') => [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain, metadata: {} },
];

/** What the agent answers each method with: an error, as a JSON answer or (streams) an SSE frame. */
const ANSWERS: Record<string, { code: number; message: string; data: unknown }> = {
  get: { code: -32000, message: 'gone-1', data: { a2aCode: 'TASK_NOT_FOUND' } },
  cancel: { code: -32603, message: 'it is done', data: errorInfo('TASK_NOT_CANCELABLE') },
  resubscribe: { code: -32000, message: 'no such task: t-9', data: errorInfo('TASK_NOT_FOUND') },
};

const METHODS: Record<string, string> = {
  GetTask: 'get',
  'tasks/get': 'get',
  CancelTask: 'cancel',
  'tasks/cancel': 'cancel',
  SubscribeToTask: 'resubscribe',
  'tasks/resubscribe': 'resubscribe',
};

function agentFor(version: '1.0' | '0.3'): Promise<RawAgent> {
  return startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, leastCard(base, 'names its errors in their data', version));
    }
    const error = ANSWERS[METHODS[rpc.method] ?? ''] ?? { code: -32601, message: 'Method not found', data: undefined };
    const body = { jsonrpc: '2.0', id: rpc.id, error };
    if (METHODS[rpc.method] !== 'resubscribe') return sendJson(res, body);
    res.writeHead(200, { 'content-type': 'text/event-stream' }).end(`data: ${JSON.stringify(body)}\n\n`);
  });
}

/** The names of an error's cause chain, outermost first. */
function causeNames(error: unknown): string[] {
  const names: string[] = [];
  for (let link = (error as Error).cause; link instanceof Error && names.length < 8; link = link.cause) names.push(link.name);
  return names;
}

const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('the call did not fail'),
    (error: unknown) => error as A2AError,
  );

for (const version of ['1.0', '0.3'] as const) {
  for (const reader of ['a4h', 'sdk'] as const) {
    describe(`v${version}, ${reader === 'sdk' ? "the SDK's" : 'our'} reader`, () => {
      let agent: RawAgent;
      let http: NodeFetch;
      let ports: ReturnType<typeof createSdkPorts>;
      beforeAll(async () => {
        agent = await agentFor(version);
        http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
        ports = createSdkPorts({ fetch: http.fetch, reader });
      });
      afterAll(async () => {
        await http?.close();
        await agent?.close();
      });

      it('a unary -32000 with data.a2aCode TASK_NOT_FOUND → task-not-found, the agent’s code, name and words', async () => {
        const error = await failure(firstValueFrom(ports(agent.url).getTask('gone-1')));
        expect(error).toBeInstanceOf(A2AError);
        expect(error).toMatchObject({ kind: 'task-not-found', code: -32000, retryable: false, operation: 'get-task' });
        expect(error.message).toContain('TASK_NOT_FOUND: gone-1');
        expect(causeNames(error)[0]).toBe('TaskNotFoundError');
      });

      it('a unary -32603 with an ErrorInfo TASK_NOT_CANCELABLE → the typed error as its cause, the agent’s code kept', async () => {
        const error = await failure(firstValueFrom(ports(agent.url).cancel('done-1')));
        expect(error).toMatchObject({ kind: 'protocol', code: -32603, retryable: false, operation: 'cancel' });
        expect(error.message).toContain('TASK_NOT_CANCELABLE: it is done');
        expect(causeNames(error)[0]).toBe('TaskNotCancelableError');
      });

      it('a stream’s error frame, -32000 with an ErrorInfo TASK_NOT_FOUND → task-not-found, the agent’s code kept', async () => {
        const error = await failure(firstValueFrom(ports(agent.url).resubscribe('t-9')));
        expect(error).toMatchObject({ kind: 'task-not-found', code: -32000, retryable: false });
        expect(error.message).toContain('TASK_NOT_FOUND: no such task: t-9');
        expect(causeNames(error)).toContain('TaskNotFoundError');
      });
    });
  }
}
