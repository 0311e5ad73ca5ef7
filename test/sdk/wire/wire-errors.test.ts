import { fromJsonRpcErrorResponse, fromRestErrorBody } from '@a2a-js/sdk/errors';
import { encodeGrpcStatusDetails, fromGrpcError, GRPC_STATUS_DETAILS_BIN } from '@a2a-js/sdk/errors/grpc';
import { Metadata, type ServiceError } from '@grpc/grpc-js';
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { classifySdkError, type CallContext } from '../../../src/sdk/wire/classify/sdk-errors.js';
import { readStream } from '../../../src/sdk/wire/reader/json-rpc.js';
import type { Wire } from '../../../src/sdk/wire/bindings/binding.js';
import { WIRE_ERRORS, wireMeaning } from '../../../src/sdk/wire/classify/wire-errors.js';

const AGENT = 'http://127.0.0.1:9/a2a/jsonrpc';
const ctx = (status?: number): CallContext => ({ operation: 'stream', agent: AGENT, ...(status === undefined ? {} : { status }) });

/** What each code must mean, written out here and not read from the table. */
const RPC: [code: number, kind: string][] = [
  [-32001, 'task-not-found'],
  [-32004, 'unsupported'],
  [-32601, 'unsupported'],
  [-32008, 'input'],
  [-32010, 'conflict'],
  [-31401, 'auth'],
  [-31403, 'auth'],
];
const HTTP: [status: number, kind: string, retryable: boolean][] = [
  [401, 'auth', false],
  [403, 'auth', false],
  [404, 'unsupported', false],
  [405, 'unsupported', false],
  [501, 'unsupported', false],
  [431, 'http', false],
  [408, 'http', true],
  [429, 'http', true],
  [500, 'http', true],
  [502, 'http', true],
  [503, 'http', true],
  [504, 'http', true],
];

const GRPC: [code: number, kind: string, retryable: boolean][] = [
  [1, 'network', true], // CANCELLED (by the server or a proxy: ours is never classified)
  [4, 'timeout', true], // DEADLINE_EXCEEDED
  [5, 'task-not-found', false], // NOT_FOUND
  [7, 'auth', false], // PERMISSION_DENIED
  [9, 'unsupported', false], // FAILED_PRECONDITION
  [12, 'unsupported', false], // UNIMPLEMENTED
  [13, 'network', true], // INTERNAL (a reset stream)
  [14, 'network', true], // UNAVAILABLE
  [16, 'auth', false], // UNAUTHENTICATED
];

/** What the SDK's gRPC transport throws for a call that ended with `code` (and an A2A `reason` in its details, if given). */
function grpcFailure(code: number, details: string, reason?: string): Error {
  const metadata = new Metadata();
  if (reason !== undefined) metadata.set(GRPC_STATUS_DETAILS_BIN, encodeGrpcStatusDetails(code, details, reason));
  return fromGrpcError(Object.assign(new Error(details), { code, details, metadata }) as ServiceError, 'getTask');
}

/** The reader's error for one answer, from a fetch that gives it without a server. */
async function readerError(status: number, body: string, type: string): Promise<A2AError> {
  const fetch = (async () => new Response(body, { status, headers: { 'content-type': type } })) as unknown as typeof globalThis.fetch;
  const read$ = readStream(
    { fetch, maxEventChars: 2 ** 20 },
    { endpoint: AGENT, method: 'SendStreamingMessage', params: {}, version: '1.0' },
    ctx(),
    { map: (response) => response },
  );
  return lastValueFrom(read$).then(
    () => expect.fail('the stream did not fail'),
    (error: unknown) => error as A2AError,
  );
}

/** A stream that opens and whose first frame is a JSON-RPC error with `code`. */
const frameError = (code: number) =>
  readerError(200, `data: ${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message: 'said' } })}\n\n`, 'text/event-stream');

describe('the wire table', () => {
  it('has a row for each code above and no other, each with its kind and retryable flag', () => {
    const rows = (wire: Wire) => WIRE_ERRORS.filter((row) => row.wire === wire).map(({ code, kind, retryable }) => [code, kind, retryable]);
    expect(rows('json-rpc')).toEqual(RPC.map(([code, kind]) => [code, kind, false]));
    expect(rows('http')).toEqual(HTTP);
    expect(rows('grpc')).toEqual(GRPC);
  });

  it('a code without a row means nothing of its own', () => {
    expect(wireMeaning('json-rpc', -32002)).toBeUndefined();
    expect(wireMeaning('http', 400)).toBeUndefined();
    expect(wireMeaning('http', undefined)).toBeUndefined();
    expect(wireMeaning('grpc', 2)).toBeUndefined();
  });
});

describe('each JSON-RPC row, as the SDK error classifier and the stream reader read it', () => {
  for (const [code, kind] of RPC) {
    it(`${code} → ${kind}, not retryable, keeping the code`, async () => {
      const classified = classifySdkError(fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: 1, error: { code, message: 'said' } }), ctx(200));
      expect(classified).toMatchObject({ kind, code, retryable: false });
      expect(await frameError(code)).toMatchObject({ kind, code, retryable: false });
    });
  }

  it('another code (-32002, TaskNotCancelable) → protocol on both', async () => {
    const classified = classifySdkError(
      fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: 1, error: { code: -32002, message: 'said' } }),
      ctx(200),
    );
    expect(classified).toMatchObject({ kind: 'protocol', code: -32002 });
    expect(await frameError(-32002)).toMatchObject({ kind: 'protocol', code: -32002 });
  });
});

describe("a generic server error whose data names an A2A error: classified by the name, keeping the agent's code", () => {
  const info = (reason: string, domain = 'a2a-protocol.org') => [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain }];
  const sdk = (code: number, data: unknown) =>
    classifySdkError(fromJsonRpcErrorResponse({ jsonrpc: '2.0', id: 1, error: { code, message: 'said', data: data as never } }), ctx(200));
  const frame = (code: number, data: unknown) =>
    readerError(200, `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code, message: 'said', data } })}\n\n`, 'text/event-stream');

  it('UNSUPPORTED_OPERATION (an ErrorInfo under -32000) → unsupported, on both paths', async () => {
    for (const error of [sdk(-32000, info('UNSUPPORTED_OPERATION')), await frame(-32000, info('UNSUPPORTED_OPERATION'))]) {
      expect(error).toMatchObject({ kind: 'unsupported', code: -32000, retryable: false });
      expect(error.message).toContain('UNSUPPORTED_OPERATION: said');
    }
  });

  it('EXTENSION_SUPPORT_REQUIRED in data.a2aCode → input, naming the extension the message names', async () => {
    const uri = 'https://extensions.example/x/v1';
    const said = { a2aCode: 'EXTENSION_SUPPORT_REQUIRED' };
    const rpc = { jsonrpc: '2.0' as const, id: 1, error: { code: -32099, message: `requires ${uri}`, data: said } };
    expect(classifySdkError(fromJsonRpcErrorResponse(rpc), ctx(200))).toMatchObject({ kind: 'input', code: -32099, extensions: [uri] });
  });

  it('a code that says what it is decides (-32001 naming another error, -32602); an unknown name or another domain names nothing', async () => {
    expect(sdk(-32001, info('TASK_NOT_CANCELABLE'))).toMatchObject({ kind: 'task-not-found', code: -32001 });
    expect(await frame(-32602, { a2aCode: 'TASK_NOT_FOUND' })).toMatchObject({ kind: 'protocol', code: -32602 });
    for (const data of [{ a2aCode: 'INVALID_TASK_STATE' }, info('TASK_NOT_FOUND', 'example.com'), 'TASK_NOT_FOUND', undefined]) {
      const error = sdk(-32000, data);
      expect(error).toMatchObject({ kind: 'protocol', code: -32000 });
      expect((error.cause as Error).name).toBe('JsonRpcTransportError');
      const read = await frame(-32000, data);
      expect(read).toMatchObject({ kind: 'protocol', code: -32000 });
      for (let link = read.cause; link instanceof Error; link = link.cause) expect(link.name).not.toMatch(/^Task/);
    }
  });

  it("HTTP+JSON: the SDK reads an ErrorInfo's reason itself, whatever the status (held before)", () => {
    const rest = fromRestErrorBody(
      { code: 500, status: 'INTERNAL', message: 'said', details: info('TASK_NOT_FOUND') },
      { statusCode: 500 },
    );
    expect(classifySdkError(rest, ctx(500))).toMatchObject({ kind: 'task-not-found', code: -32001 });
  });
});

describe('ExtensionSupportRequired (-32008): the extension URI the agent names', () => {
  const URI = 'https://extensions.example/secure-passport/v1';
  const errorInfo = [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'EXTENSION_SUPPORT_REQUIRED',
      domain: 'a2a-protocol.org',
      metadata: { extensions: `${URI},urn:example:other` },
    },
  ];
  const rpc = (message: string, data?: Record<string, unknown>[]) => ({
    jsonrpc: '2.0' as const,
    id: 1,
    error: { code: -32008, message, ...(data ? { data } : {}) },
  });
  const frame = (message: string, data?: Record<string, unknown>[]) =>
    readerError(200, `data: ${JSON.stringify(rpc(message, data))}\n\n`, 'text/event-stream');

  it("in the agent's message: named in the error's extensions and message, on both paths", async () => {
    const said = `Client must declare support for required extensions: ${URI}.`;
    for (const error of [classifySdkError(fromJsonRpcErrorResponse(rpc(said)), ctx(200)), await frame(said)]) {
      expect(error).toMatchObject({ kind: 'input', code: -32008, retryable: false, extensions: [URI] });
      expect(error.message).toContain(`requires the extension ${URI}`);
    }
  });

  it("in the error's data (the ErrorInfo's metadata), on both paths", async () => {
    for (const error of [
      classifySdkError(fromJsonRpcErrorResponse(rpc('Extension support required', errorInfo)), ctx(200)),
      await frame('Extension support required', errorInfo),
    ]) {
      expect(error).toMatchObject({ kind: 'input', code: -32008, extensions: [URI, 'urn:example:other'] });
    }
  });

  it("HTTP+JSON: the SDK's error for a 400 with reason EXTENSION_SUPPORT_REQUIRED, the URI in its metadata", () => {
    const rest = fromRestErrorBody(
      { code: 400, status: 'FAILED_PRECONDITION', message: 'Extension support required', details: errorInfo },
      { statusCode: 400 },
    );
    expect(classifySdkError(rest, ctx(400))).toMatchObject({
      kind: 'input',
      code: -32008,
      status: 400,
      extensions: [URI, 'urn:example:other'],
    });
  });

  it("named nowhere: still an input error, with the agent's words and no extensions", async () => {
    const error = await frame('Extension support required');
    expect(error).toMatchObject({ kind: 'input', code: -32008 });
    expect(error.extensions).toBeUndefined();
    expect(error.message).toContain('Extension support required');
  });
});

describe('each HTTP row, as the SDK error classifier and the stream reader read it', () => {
  for (const [status, kind, retryable] of HTTP) {
    it(`${status} → ${kind}${retryable ? ', retryable' : ', not retryable'}`, async () => {
      const sdk = new Error(`HTTP error for SendStreamingMessage! Status: ${status}`);
      expect(classifySdkError(sdk, ctx(status))).toMatchObject({ kind, status, retryable });
      expect(await readerError(status, 'no', 'text/plain')).toMatchObject({ kind, status, retryable });
    });
  }

  it('another status from 400 up (400, 418) → http, not retryable', async () => {
    for (const status of [400, 418]) {
      expect(classifySdkError(new Error('HTTP error'), ctx(status))).toMatchObject({ kind: 'http', status, retryable: false });
      expect(await readerError(status, 'no', 'text/plain')).toMatchObject({ kind: 'http', status, retryable: false });
    }
  });

  it("a generic JSON-RPC error under a retryable status is that status's meaning, with the code (the reader's path)", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'Internal error' } });
    expect(await readerError(408, body, 'application/json')).toMatchObject({ kind: 'http', status: 408, code: -32603, retryable: true });
    expect(await readerError(404, body, 'application/json')).toMatchObject({ kind: 'unsupported', status: 404, retryable: false });
    expect(await readerError(400, body, 'application/json')).toMatchObject({
      kind: 'protocol',
      status: 400,
      code: -32603,
      retryable: false,
    });
  });
});

describe('each gRPC row, as the SDK error classifier reads what its gRPC transport threw', () => {
  for (const [code, kind, retryable] of GRPC) {
    it(`status ${code} → ${kind}${retryable ? ', retryable' : ', not retryable'}, keeping the code`, () => {
      const classified = classifySdkError(grpcFailure(code, 'the agent said: Bearer s3cret'), ctx());
      expect(classified).toMatchObject({ kind, retryable, grpcCode: code, operation: 'stream', agent: AGENT });
      // An auth error repeats none of the agent's words (they could echo a credential).
      if (kind === 'auth') expect(classified.message).not.toContain('s3cret');
    });
  }

  it('another status (UNKNOWN, INVALID_ARGUMENT, RESOURCE_EXHAUSTED) → protocol, not retryable', () => {
    for (const code of [2, 3, 8]) {
      expect(classifySdkError(grpcFailure(code, 'said'), ctx())).toMatchObject({ kind: 'protocol', retryable: false, grpcCode: code });
    }
  });

  it("a status with A2A's ErrorInfo is its typed error, whatever the status: TaskNotFound, UnsupportedOperation; another reason is protocol", () => {
    expect(classifySdkError(grpcFailure(5, 'no such task', 'TASK_NOT_FOUND'), ctx())).toMatchObject({
      kind: 'task-not-found',
      code: -32001,
    });
    expect(classifySdkError(grpcFailure(9, 'finished', 'UNSUPPORTED_OPERATION'), ctx())).toMatchObject({
      kind: 'unsupported',
      code: -32004,
    });
    // INTERNAL alone is a reset stream (retryable); with the reason it is the agent's answer, final.
    expect(classifySdkError(grpcFailure(13, 'bad', 'INVALID_AGENT_RESPONSE'), ctx())).toMatchObject({ kind: 'protocol', retryable: false });
  });
});
