import {
  A2AError as SdkA2AError,
  fromJsonRpcErrorResponse,
  fromRestErrorBody,
  InvalidAgentResponseError,
  JsonRpcTransportError,
  JsonRpcUnsupportedOperationError,
  RestTaskNotFoundError,
  TaskNotFoundError,
  UnsupportedOperationError,
} from '@a2a-js/sdk/errors';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { classifySdkError, type CallContext } from '../../../src/sdk/wire/classify/sdk-errors.js';

const AGENT = 'http://127.0.0.1:9/a2a/jsonrpc';
const ctx = (status?: number): CallContext => ({ operation: 'send', agent: AGENT, ...(status === undefined ? {} : { status }) });

/** The JSON-RPC error envelope as a server sends it. */
const envelope = (code: number, message: string) => ({ jsonrpc: '2.0' as const, id: 1, error: { code, message } });

describe('classifySdkError: typed SDK errors', () => {
  it('TaskNotFoundError → task-not-found (-32001), not retryable, naming the operation and agent', () => {
    const error = classifySdkError(new TaskNotFoundError({ message: 'Task t-1 not found' }), ctx(200));
    expect(error).toBeInstanceOf(A2AError);
    expect(error).toMatchObject({ kind: 'task-not-found', code: -32001, retryable: false, operation: 'send', agent: AGENT });
    expect(error.message).toContain('send');
    expect(error.message).toContain(AGENT);
    expect(error.message).toContain('Task t-1 not found');
  });

  it('a JSON-RPC -32001 envelope (what the JSON-RPC transport throws) → task-not-found', () => {
    const thrown = fromJsonRpcErrorResponse(envelope(-32001, 'Task not found: t-2'));
    expect(classifySdkError(thrown, ctx(200))).toMatchObject({ kind: 'task-not-found', code: -32001 });
  });

  it('RestTaskNotFoundError with HTTP 404 is task-not-found, not "unsupported" (the typed error wins over the status)', () => {
    const thrown = new RestTaskNotFoundError({ message: 'Task not found', statusCode: 404 });
    expect(classifySdkError(thrown, { operation: 'get-task', agent: AGENT, status: 404 })).toMatchObject({
      kind: 'task-not-found',
      operation: 'get-task',
    });
  });

  it('a REST error body with the TASK_NOT_FOUND reason → task-not-found', () => {
    const thrown = fromRestErrorBody(
      {
        message: 'Task not found',
        code: 404,
        status: 'NOT_FOUND',
        details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' }],
      },
      { statusCode: 404 },
    );
    expect(classifySdkError(thrown, ctx(404)).kind).toBe('task-not-found');
  });

  it('UnsupportedOperationError → unsupported with code -32004', () => {
    const error = classifySdkError(new UnsupportedOperationError({ message: 'resubscribe is not supported' }), {
      operation: 'resubscribe',
      agent: AGENT,
    });
    expect(error).toMatchObject({ kind: 'unsupported', code: -32004, retryable: false, operation: 'resubscribe' });
    expect(error.message).toContain('resubscribe');
  });

  it('a JSON-RPC -32004 envelope → unsupported -32004', () => {
    const thrown = fromJsonRpcErrorResponse(envelope(-32004, 'Unsupported operation'));
    expect(thrown).toBeInstanceOf(JsonRpcUnsupportedOperationError);
    expect(classifySdkError(thrown, ctx(200))).toMatchObject({ kind: 'unsupported', code: -32004 });
  });

  it('JSON-RPC -32601 method not found → unsupported, keeping the code', () => {
    const fromEnvelope = fromJsonRpcErrorResponse(envelope(-32601, 'Method not found: SubscribeToTask'));
    expect(classifySdkError(fromEnvelope, ctx(200))).toMatchObject({ kind: 'unsupported', code: -32601 });
    const transport = new JsonRpcTransportError(envelope(-32601, 'Method not found'));
    expect(classifySdkError(transport, ctx(200))).toMatchObject({ kind: 'unsupported', code: -32601 });
  });

  it('a generic JSON-RPC error under a transient HTTP status (-32603 under 500, 503) is a retryable http error with its code', () => {
    const thrown = fromJsonRpcErrorResponse(envelope(-32603, 'Internal error'));
    expect(classifySdkError(thrown, ctx(500))).toMatchObject({ kind: 'http', code: -32603, status: 500, retryable: true });
    expect(classifySdkError(thrown, ctx(503))).toMatchObject({ kind: 'http', code: -32603, status: 503, retryable: true });
  });

  it('the same JSON-RPC error under HTTP 200 (inside a stream) or 400 is a protocol error with its code', () => {
    const thrown = fromJsonRpcErrorResponse(envelope(-32603, 'Internal error'));
    expect(classifySdkError(thrown, ctx(200))).toMatchObject({ kind: 'protocol', code: -32603, retryable: false });
    expect(classifySdkError(thrown, ctx(400))).toMatchObject({ kind: 'protocol', code: -32603, status: 400, retryable: false });
  });

  it('a semantic error the ladder has no rung for (InvalidAgentResponseError) → protocol', () => {
    expect(classifySdkError(new InvalidAgentResponseError({ message: 'bad payload' }), ctx(200))).toMatchObject({
      kind: 'protocol',
      retryable: false,
    });
  });
});

describe('classifySdkError: typed errors wrapped in .cause', () => {
  it("the v0.3 SSE path's plain Error with a TaskNotFoundError cause → task-not-found", () => {
    const thrown = new Error('SSE event contained an error: Task not found (Code: -32001) Data: {}', {
      cause: new TaskNotFoundError({ message: 'Task not found' }),
    });
    expect(classifySdkError(thrown, { operation: 'resubscribe', agent: AGENT, status: 200 })).toMatchObject({
      kind: 'task-not-found',
      operation: 'resubscribe',
    });
  });

  it('the same with the cause the SDK really builds (fromJsonRpcErrorResponse), two levels down', () => {
    const sse = new Error('SSE event contained an error: Unsupported (Code: -32004) Data: {}', {
      cause: fromJsonRpcErrorResponse(envelope(-32004, 'Unsupported')),
    });
    const wrapped = new Error('stream failed', { cause: sse });
    expect(classifySdkError(wrapped, ctx(200))).toMatchObject({ kind: 'unsupported', code: -32004 });
  });
});

describe('classifySdkError: connection failures', () => {
  it("a socket drop mid-stream (TypeError 'terminated', UND_ERR_SOCKET) → network, retryable", () => {
    const thrown = new TypeError('terminated', { cause: { code: 'UND_ERR_SOCKET' } });
    const error = classifySdkError(thrown, { operation: 'stream', agent: AGENT, status: 200 });
    expect(error).toMatchObject({ kind: 'network', retryable: true, operation: 'stream' });
    expect(error.message).toContain('UND_ERR_SOCKET');
    expect(error.cause).toBe(thrown);
  });

  it("a refused connection (TypeError 'fetch failed', ECONNREFUSED) → network, retryable", () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const error = classifySdkError(new TypeError('fetch failed', { cause: refused }), ctx());
    expect(error).toMatchObject({ kind: 'network', retryable: true });
    expect(error.message).toContain('ECONNREFUSED');
  });
});

describe('classifySdkError: HTTP statuses the SDK only put in its message', () => {
  const httpError = (status: number) => new Error(`HTTP error for SendMessage! Status: ${status} Whatever. Response: <html>…</html>`);

  for (const status of [404, 405, 501]) {
    it(`HTTP ${status} → unsupported with the status`, () => {
      expect(classifySdkError(httpError(status), ctx(status))).toMatchObject({ kind: 'unsupported', status, retryable: false });
    });
  }

  for (const status of [429, 500, 502, 503, 504]) {
    it(`HTTP ${status} → http, retryable`, () => {
      expect(classifySdkError(httpError(status), ctx(status))).toMatchObject({ kind: 'http', status, retryable: true });
    });
  }

  it('HTTP 400 → http, not retryable', () => {
    expect(classifySdkError(httpError(400), ctx(400))).toMatchObject({ kind: 'http', status: 400, retryable: false });
  });

  for (const status of [401, 403]) {
    it(`HTTP ${status} → auth, not retryable`, () => {
      expect(classifySdkError(httpError(status), ctx(status))).toMatchObject({ kind: 'auth', status, retryable: false });
    });
  }

  for (const code of [-31401, -31403]) {
    it(`JSON-RPC ${code} (a2a-go's unauthenticated / unauthorized) → auth, completed with what the call knows`, () => {
      const thrown = fromJsonRpcErrorResponse(envelope(code, 'unauthenticated'));
      const auth = { schemes: ['bearerAuth (HTTP Bearer, required)'], sent: 'none' };
      const error = classifySdkError(thrown, { ...ctx(200), auth });
      expect(error).toMatchObject({ kind: 'auth', code, retryable: false, auth });
      expect(error.message).toContain('the card declares bearerAuth (HTTP Bearer, required); sent: none');
    });
  }

  it('the body the SDK quoted in its message is not copied into ours', () => {
    const thrown = new Error('HTTP error for SendMessage! Status: 400 Bad Request. Response: {"echo":"Bearer s3cr3t"}');
    expect(classifySdkError(thrown, ctx(400)).message).not.toContain('s3cr3t');
  });

  it('a non-JSON error body (the SDK wraps a SyntaxError) is still classified by its status', () => {
    const thrown = new Error('HTTP error for SendMessage! Status: 503 Service Unavailable. Response: <html>', {
      cause: new SyntaxError('Unexpected token <'),
    });
    expect(classifySdkError(thrown, ctx(503))).toMatchObject({ kind: 'http', status: 503, retryable: true });
  });
});

describe('classifySdkError: HTTP+JSON errors (the status is on the SDK error)', () => {
  it('a bare REST error with HTTP 503 → http, retryable (as on the JSON-RPC path)', () => {
    const thrown = fromRestErrorBody({ message: 'HTTP error for /message:send: 503 Service Unavailable' }, { statusCode: 503 });
    expect(thrown).toBeInstanceOf(SdkA2AError);
    expect(classifySdkError(thrown, ctx(503))).toMatchObject({ kind: 'http', status: 503, retryable: true });
  });

  it('a bare REST error with HTTP 400 → http, not retryable', () => {
    const thrown = fromRestErrorBody({ message: 'bad request', code: 400, status: 'INVALID_ARGUMENT' }, { statusCode: 400 });
    expect(classifySdkError(thrown, ctx(400))).toMatchObject({ kind: 'http', status: 400, retryable: false });
  });

  it('a bare REST error with HTTP 405 → unsupported', () => {
    const thrown = fromRestErrorBody({ message: 'HTTP error for /tasks/t-1:subscribe: 405 Method Not Allowed' }, { statusCode: 405 });
    expect(classifySdkError(thrown, { operation: 'resubscribe', agent: AGENT, status: 405 })).toMatchObject({
      kind: 'unsupported',
      status: 405,
    });
  });

  it('the response headers a REST error carries never reach the message', () => {
    const thrown = fromRestErrorBody(
      { message: 'HTTP error for /message:send: 503 Service Unavailable' },
      { statusCode: 503, headers: { 'www-authenticate': 'Bearer realm="secret-realm-value"' } },
    );
    const error = classifySdkError(thrown, ctx(503));
    expect(error.message).not.toContain('secret-realm-value');
  });
});

describe('classifySdkError: anything else', () => {
  it('a SyntaxError (a malformed body) → protocol, not retryable', () => {
    const error = classifySdkError(new SyntaxError('Unexpected end of JSON input'), ctx(200));
    expect(error).toMatchObject({ kind: 'protocol', retryable: false, operation: 'send', agent: AGENT });
    expect(error.message).toContain('Unexpected end of JSON input');
  });

  it('a non-Error thrown value → protocol with its text', () => {
    expect(classifySdkError('boom', ctx())).toMatchObject({ kind: 'protocol', message: expect.stringContaining('boom') });
  });

  it('an A2AError that names its agent passes through unchanged (the same object)', () => {
    const ours = new A2AError({ kind: 'timeout', phase: 'idle', agent: 'http://other/', message: 'idle timed out after 5 ms' });
    expect(classifySdkError(ours, ctx(503))).toBe(ours);
  });

  it('an A2AError of our own that names no agent (a malformed event) gains the agent and the operation', () => {
    const ours = new A2AError({ kind: 'protocol', code: -32700, message: 'malformed event from the agent: task.id is missing' });
    const named = classifySdkError(ours, ctx(200));
    expect(named).toMatchObject({ kind: 'protocol', code: -32700, operation: ctx().operation, agent: ctx().agent });
    expect(named.message).toBe(`${ctx().operation} to ${ctx().agent}: malformed event from the agent: task.id is missing`);
  });

  it('keeps the thrown value as the cause', () => {
    const thrown = new TaskNotFoundError();
    expect(classifySdkError(thrown, ctx()).cause).toBe(thrown);
  });
});
