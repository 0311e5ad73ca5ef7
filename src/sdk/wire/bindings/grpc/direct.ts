/**
 * Direct delivery of a gRPC stream's messages: the SDK hands each message of a stream through a Node
 * `Readable`'s async iterator and three async generators (its transport's, its tenant decorator's, its
 * client's, which also awaits its interceptors per message), a chain of promise jobs per event. A
 * stream call that carries {@link DIRECT_KEY} in its service parameters has its messages handed to
 * the sink opened under that key instead, by the channel's interceptor (`node.ts`), in the call's own
 * message callback; the SDK's chain still starts the call, ends it and reads its status. A text chunk
 * is read from its bytes where the call keeps them (`bytes.ts`, `scan.ts`): the sink then gets the
 * event itself. Nothing here loads gRPC: the core's transports open sinks, and only the Node entry's
 * interceptor reads them.
 */

/** The service parameter (so the call's metadata key) naming a call's sink; the interceptor takes it off before the call goes out. */
export const DIRECT_KEY = 'a4h-direct-delivery';

/**
 * Where one call's messages go: as the SDK's codec decoded them, or, when `read` is true, as the
 * event the parse-less path read from the message's bytes (`scan.ts`: an `AgentEvent`, mapped already).
 */
export type DirectSink = (message: unknown, read?: boolean) => void;

const sinks = new Map<string, DirectSink>();
let opened = 0;

/** A sink opened for one call: the value of {@link DIRECT_KEY} on it, and its closing (once the call is over). */
export interface DirectDelivery {
  readonly key: string;
  close(): void;
}

/** Opens a sink for one stream call. */
export function openDelivery(sink: DirectSink): DirectDelivery {
  const key = String(++opened);
  sinks.set(key, sink);
  return { key, close: () => sinks.delete(key) };
}

/** The sink a call's {@link DIRECT_KEY} names; undefined once it is closed (its messages then go the SDK's way). */
export function sinkOf(key: string): DirectSink | undefined {
  return sinks.get(key);
}

/** How many sinks are open (one per direct stream call in flight): tests check that none is left behind. */
export function openDeliveries(): number {
  return sinks.size;
}
