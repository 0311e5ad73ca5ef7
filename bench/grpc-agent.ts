/**
 * The gRPC bench agent: `@grpc/grpc-js` on 127.0.0.1 serving the SDK's A2A v1.0 service definition
 * (the SDK's own codec on the wire), whose SendStreamingMessage answers like the replay agent: task
 * SUBMITTED → status WORKING → N artifact chunks of 16 bytes (the message text is N) → status
 * COMPLETED, written with backpressure so the client sets the pace; its card, naming only the gRPC
 * interface, is served over HTTP. a4h-a2a and the SDK's own gRPC client run against the same one.
 *
 * Like the replay agent, it does not encode what it can copy: each turn's chunks are the bytes the
 * SDK's codec makes for its first, a middle and its last chunk, with the digits of the chunk's text
 * written in (the text's length never changes, so neither does any length before it); `chunkBytes`
 * checks that against the codec. Encoding each chunk made the agent spend more CPU per event than
 * either client, so the agent set the pace of both.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';
import { TaskState, type AgentCard, type SendMessageRequest, type StreamResponse } from '@a2a-js/sdk';
import { A2AService } from '@a2a-js/sdk/server/grpc';
import { chunkText } from './frames.js';

export interface GrpcBenchAgent {
  /** The card's base URL, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** TCP connections accepted by the card server (the gRPC ones are not counted). */
  readonly connections: number;
  close(): Promise<void>;
}

const status = (taskId: string, contextId: string, state: TaskState): StreamResponse => ({
  payload: {
    $case: 'statusUpdate',
    value: { taskId, contextId, status: { state, message: undefined, timestamp: undefined }, metadata: undefined },
  },
});

/** The SDK's encoding of a stream event: the service's own serializer. */
const encode = (event: StreamResponse): Buffer => A2AService.sendStreamingMessage.responseSerialize(event);

/** Chunk `i`'s event of a turn of `n` chunks. */
function chunkEvent(taskId: string, contextId: string, i: number, n: number): StreamResponse {
  const parts = [{ content: { $case: 'text' as const, value: chunkText(i) }, metadata: undefined, filename: '', mediaType: '' }];
  return {
    payload: {
      $case: 'artifactUpdate',
      value: {
        taskId,
        contextId,
        artifact: { artifactId: 'out', name: '', description: '', parts, metadata: undefined, extensions: [] },
        append: i > 0,
        lastChunk: i === n - 1,
        metadata: undefined,
      },
    },
  };
}

/**
 * The encoded chunks of one turn, copied from three templates (first, middle, last) with the text's
 * digits written in; the first and last chunk of every turn, and one in the middle, are checked
 * against the codec (a template that did not hold would stop the run).
 */
export function chunkBytes(taskId: string, contextId: string, n: number): (i: number) => Buffer {
  const digits = chunkText(0).length - 'chunk-'.length;
  const template = (i: number) => {
    const bytes = encode(chunkEvent(taskId, contextId, i, n));
    return { bytes, at: bytes.lastIndexOf(chunkText(i)) + 'chunk-'.length };
  };
  const first = template(0);
  const middle = template(Math.min(1, n - 1));
  const last = template(n - 1);
  const bytesOf = (i: number): Buffer => {
    const { bytes, at } = i === 0 ? first : i === n - 1 ? last : middle;
    const copy = Buffer.from(bytes);
    copy.write(chunkText(i).slice(-digits), at, 'latin1');
    return copy;
  };
  for (const i of new Set([0, n >> 1, n - 1])) {
    if (!bytesOf(i).equals(encode(chunkEvent(taskId, contextId, i, n))))
      throw new Error(`gRPC bench agent: chunk ${i}'s bytes differ from the codec's`);
  }
  return bytesOf;
}

/** The stream of one turn of `n` chunks (the chunks already encoded). */
function* answer(request: SendMessageRequest, n: number): Generator<StreamResponse | Buffer> {
  const taskId = randomUUID();
  const contextId = request.message?.contextId || randomUUID();
  const history = request.message ? [request.message] : [];
  yield {
    payload: {
      $case: 'task',
      value: {
        id: taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: undefined },
        artifacts: [],
        history,
        metadata: undefined,
      },
    },
  };
  yield status(taskId, contextId, TaskState.TASK_STATE_WORKING);
  if (n > 0) {
    const chunk = chunkBytes(taskId, contextId, n);
    for (let i = 0; i < n; i++) yield chunk(i);
  }
  yield status(taskId, contextId, TaskState.TASK_STATE_COMPLETED);
}

/** Starts the gRPC bench agent (and its card server) on 127.0.0.1 and free ports. */
export async function startGrpcBenchAgent(): Promise<GrpcBenchAgent> {
  const server = new grpc.Server();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (error, bound) => (error ? reject(error) : resolve(bound))),
  );
  const unimplemented = (_call: unknown, callback: grpc.sendUnaryData<unknown>) => callback({ code: grpc.status.UNIMPLEMENTED });
  const implementation: grpc.UntypedServiceImplementation = Object.fromEntries(
    Object.keys(A2AService).map((name) => [name, unimplemented]),
  );
  implementation['sendStreamingMessage'] = (async (call: grpc.ServerWritableStream<SendMessageRequest, StreamResponse | Buffer>) => {
    const text = call.request.message?.parts[0]?.content;
    const n = Number(text?.$case === 'text' ? text.value : 0);
    for (const event of answer(call.request, n)) {
      if (call.cancelled) return;
      if (!call.write(event)) await new Promise((resolve) => call.once('drain', resolve));
    }
    call.end();
  }) as grpc.UntypedHandleCall;
  // The service as the SDK defines it, but a stream event already encoded is written as it is.
  const streaming = A2AService.sendStreamingMessage;
  const serialize = (event: StreamResponse | Buffer): Buffer => (Buffer.isBuffer(event) ? event : streaming.responseSerialize(event));
  server.addService({ ...A2AService, sendStreamingMessage: { ...streaming, responseSerialize: serialize } }, implementation);

  const card: AgentCard = {
    name: 'grpc-bench',
    description: 'The gRPC bench agent.',
    supportedInterfaces: [{ url: `127.0.0.1:${port}`, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
  };
  const json = JSON.stringify(card);
  let connections = 0;
  const http = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }).end(json),
  );
  http.on('connection', () => connections++);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const cardPort = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${cardPort}/`,
    get connections() {
      return connections;
    },
    close: async () => {
      server.forceShutdown();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
