/**
 * gRPC's parse-less path (`bindings/grpc/scan.ts`) against the full path of a stream message (the SDK
 * client's own decoder, then `fromSdkEvent`): wherever the scan answers, it gives the same event and
 * remembers the same ids; where it declines, it remembers nothing. Over the text chunks the SDK's codec
 * writes (any text, any ids, `append` and `lastChunk` either way), with ids told before or not; other
 * messages (a task, a status, a message, an artifact with a name, metadata, a second part or another
 * kind of part); and all of those cut short or with one byte changed.
 */
import type { AgentCard, StreamResponse } from '@a2a-js/sdk';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import * as grpcJs from '@grpc/grpc-js';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { scanGrpcTextChunk, type ScanIds } from '../../../../src/sdk/wire/bindings/grpc/scan.js';
import { fromSdkEvent } from '../../../../src/sdk/wire/mapping/from-sdk.js';
import { remember, type StreamIds } from '../../../../src/sdk/wire/mapping/stream-ids.js';

const card = { supportedInterfaces: [{ url: '127.0.0.1:9', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }] } as AgentCard;
const transport = (await new GrpcTransportFactory().create('127.0.0.1:9', card)) as unknown as {
  grpcClient: grpcJs.Client & { sendStreamingMessage: { responseDeserialize: (bytes: Buffer) => StreamResponse } };
};
afterAll(() => grpcJs.closeClient(transport.grpcClient));

/** The client's own decoding of a stream message, as grpc-js calls it. */
const decode = transport.grpcClient.sendStreamingMessage.responseDeserialize;
/** The SDK server's encoding of a stream message. */
const encode = (response: StreamResponse): Buffer => A2AService.sendStreamingMessage.responseSerialize(response);

/** The full path's answer: the event and the ids it remembers, or the error it throws. */
function full(bytes: Buffer, ids: StreamIds): unknown {
  try {
    return fromSdkEvent(remember(decode(bytes), ids));
  } catch (error) {
    return { failed: String(error) };
  }
}

/** Scan and full path on copies of the same ids: equal wherever the scan answers; no id remembered where it declines. */
function agrees(bytes: Buffer, told: ScanIds): { scanned: boolean } {
  const byScan = { ...told };
  const byFull: StreamIds = { taskId: told.taskId, contextId: told.contextId };
  const event = scanGrpcTextChunk(bytes, byScan);
  if (event === undefined) {
    expect(byScan).toEqual(told);
    return { scanned: false };
  }
  expect(event).toEqual(full(bytes, byFull));
  // The chunk's artifact id is remembered besides the stream's ids.
  const { artifactId } = (event as { artifact: { artifactId: string } }).artifact;
  expect(byScan).toEqual({ ...byFull, artifactId });
  return { scanned: true };
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ minLength: 100, maxLength: 400 }),
  fc.constantFrom('', 'chunk-0000000001', '\u0000\u001f\u007f', '\ufeffbom', '😀', '\ud800', 'é'),
);
const ident = fc.oneof(fc.uuid(), fc.constantFrom('', 'T', 'out', 'é'), fc.string());
const chunk = fc.record({ taskId: ident, contextId: ident, artifactId: ident, text, append: fc.boolean(), lastChunk: fc.boolean() });
const told = fc.oneof(
  fc.constant<ScanIds>({}),
  fc.record({ taskId: ident, contextId: ident }),
  fc.record({ taskId: ident, contextId: ident, artifactId: ident }),
  fc.constantFrom<ScanIds>({ taskId: 'T' }, { artifactId: 'out' }),
);

type Chunk = typeof chunk extends fc.Arbitrary<infer C> ? C : never;

function chunkResponse(c: Chunk, artifact: Record<string, unknown> = {}): StreamResponse {
  const parts = [{ content: { $case: 'text' as const, value: c.text }, metadata: undefined, filename: '', mediaType: '' }];
  const value = {
    taskId: c.taskId,
    contextId: c.contextId,
    artifact: { artifactId: c.artifactId, name: '', description: '', parts, metadata: undefined, extensions: [], ...artifact },
    append: c.append,
    lastChunk: c.lastChunk,
    metadata: undefined,
  };
  return { payload: { $case: 'artifactUpdate', value } } as StreamResponse;
}

/** Messages the scan must leave to the full path (or read as it would). */
const other = fc.oneof(
  chunk.map((c) => chunkResponse(c, { name: 'named' })),
  chunk.map((c) => chunkResponse(c, { metadata: { k: 1 } })),
  chunk.map((c) => chunkResponse(c, { extensions: ['x'] })),
  chunk.map((c) => {
    const response = chunkResponse(c) as { payload: { value: { artifact: { parts: unknown[] } } } };
    const [part] = response.payload.value.artifact.parts;
    response.payload.value.artifact.parts.push(part, part);
    return response as StreamResponse;
  }),
  chunk.map((c) => {
    const response = chunkResponse(c) as { payload: { value: { artifact: { parts: Array<{ content: unknown }> } } } };
    response.payload.value.artifact.parts[0]!.content = { $case: 'url', value: 'https://example.com/f' };
    return response as StreamResponse;
  }),
  fc.tuple(chunk, fc.constantFrom({ filename: 'f.txt' }, { mediaType: 'text/plain' }, { metadata: { p: true } })).map(([c, extra]) => {
    const response = chunkResponse(c) as { payload: { value: { artifact: { parts: object[] } } } };
    Object.assign(response.payload.value.artifact.parts[0]!, extra);
    return response as StreamResponse;
  }),
  chunk.map(
    (c) =>
      ({
        ...chunkResponse(c),
        payload: { ...chunkResponse(c).payload!, value: { ...chunkResponse(c).payload!.value, metadata: { m: 'x' } } },
      }) as StreamResponse,
  ),
  ident.map(
    (id) =>
      ({
        payload: {
          $case: 'statusUpdate',
          value: { taskId: id, contextId: id, status: { state: 2, message: undefined, timestamp: undefined }, metadata: undefined },
        },
      }) as StreamResponse,
  ),
  ident.map(
    (id) =>
      ({
        payload: {
          $case: 'task',
          value: {
            id,
            contextId: id,
            status: { state: 1, message: undefined, timestamp: undefined },
            artifacts: [],
            history: [],
            metadata: undefined,
          },
        },
      }) as StreamResponse,
  ),
);

describe("gRPC's parse-less path", () => {
  it('reads every text chunk the SDK writes whose artifact has an id, as the full path does', () => {
    fc.assert(
      fc.property(chunk, told, (c, ids) => {
        expect(agrees(encode(chunkResponse(c)), ids).scanned).toBe(c.artifactId !== '');
      }),
      { numRuns: 500 },
    );
  });

  it("hands back an id told before, and the last chunk's artifact id, as that same string", () => {
    const c = { taskId: 'task-1', contextId: 'ctx-1', artifactId: 'out-1', text: 'hi', append: true, lastChunk: false };
    const ids = { taskId: ['task', '1'].join('-'), contextId: ['ctx', '1'].join('-'), artifactId: ['out', '1'].join('-') };
    const event = scanGrpcTextChunk(encode(chunkResponse(c)), ids) as {
      taskId: string;
      contextId: string;
      artifact: { artifactId: string };
    };
    expect(event.taskId).toBe(ids.taskId);
    expect(event.contextId).toBe(ids.contextId);
    expect(event.artifact.artifactId).toBe(ids.artifactId);
  });

  it('leaves any other message to the full path, or reads it as that path does', () => {
    fc.assert(
      fc.property(other, told, (response, ids) => {
        expect(agrees(encode(response), ids).scanned).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('a message cut short or with one byte changed: declined, or read as the full path reads it', () => {
    const message = fc
      .oneof(
        chunk.map((c) => chunkResponse(c)),
        other,
      )
      .map(encode);
    fc.assert(
      fc.property(message, fc.nat(), fc.integer({ min: 0, max: 255 }), told, (bytes, at, byte, ids) => {
        agrees(bytes.subarray(0, at % (bytes.length + 1)), ids);
        const changed = Buffer.from(bytes);
        changed[at % bytes.length] = byte;
        agrees(changed, ids);
      }),
      { numRuns: 2000 },
    );
  });
});
