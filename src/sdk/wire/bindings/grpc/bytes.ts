/**
 * A v1.0 stream's messages as bytes: the SDK's gRPC client decodes every message of a stream into its
 * codec's objects under every interceptor (`responseDeserialize`, in the call grpc-js makes for the
 * method), where direct delivery (`direct.ts`) would rather read a text chunk from its bytes
 * (`scan.ts`). The SDK's transport calls its client's stream methods by name on each call; this gives
 * one transport's client its own two stream methods, the same calls whose deserializer keeps the
 * bytes, and the direct interceptor (`node.ts`) decodes them with the SDK's own decoder wherever the
 * bytes are not read (a message the scan declines, a call without a sink). Nothing here loads gRPC.
 */

/** The SDK's decoding of one stream message, its method's own `responseDeserialize`. */
export type StreamDecode = (bytes: Buffer) => unknown;

/** The stream methods of the SDK's v1.0 gRPC client (`SendStreamingMessage`, `SubscribeToTask`). */
const STREAMS = ['sendStreamingMessage', 'subscribeToTask'] as const;

/** A grpc-js client method as `makeGenericClientConstructor` makes it: a function carrying its method's definition. */
interface ClientMethod {
  (...args: unknown[]): unknown;
  path?: unknown;
  requestSerialize?: unknown;
  responseDeserialize?: unknown;
}

/** What a grpc-js client does for a server-streaming method (its own methods call it). */
interface StreamingClient {
  makeServerStreamRequest(path: string, serialize: unknown, deserialize: (bytes: Buffer) => unknown, ...args: unknown[]): unknown;
}

/** The deserializers that keep a message's bytes, each with the SDK decoding it stands for. */
const kept = new WeakMap<object, StreamDecode>();

/**
 * Gives `transport`'s client (the SDK's v1.0 `GrpcTransport`'s `grpcClient`) stream methods whose
 * messages come up the interceptors as their bytes. A client without those methods is left as it is
 * (its messages stay decoded, and direct delivery maps them as they come).
 */
export function keepStreamBytes(transport: unknown): void {
  const client = (transport as { grpcClient?: Record<string, unknown> } | undefined)?.grpcClient;
  if (client === undefined || typeof (client as Partial<StreamingClient>).makeServerStreamRequest !== 'function') return;
  for (const name of STREAMS) {
    const method = client[name] as ClientMethod | undefined;
    if (typeof method !== 'function' || typeof method.path !== 'string' || typeof method.responseDeserialize !== 'function') continue;
    const { path, requestSerialize } = method;
    const keep = (bytes: Buffer): Buffer => bytes;
    kept.set(keep, method.responseDeserialize as StreamDecode);
    client[name] = function (this: StreamingClient, ...args: unknown[]) {
      return this.makeServerStreamRequest(path, requestSerialize, keep, ...args);
    };
  }
}

/** The SDK's decoding a call's deserializer stands for when it keeps the bytes; undefined when its messages come decoded. */
export function keptDecode(responseDeserialize: unknown): StreamDecode | undefined {
  return typeof responseDeserialize === 'function' ? kept.get(responseDeserialize) : undefined;
}
