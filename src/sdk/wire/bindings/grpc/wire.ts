/**
 * A gRPC call as a watcher sees it (the command line's `--debug`): each call's method and metadata as
 * it goes out, each message sent and received as the SDK's codec holds it, the answer's metadata and
 * the final status. Only the Node entry installs the interceptor (`node.ts`); nothing here loads gRPC.
 */

/** One thing that happened on a gRPC call, in order; `call` numbers the calls of one support. */
export type GrpcWireEvent =
  | { call: number; kind: 'start'; method: string; metadata: [string, string][] }
  | { call: number; kind: 'send' | 'receive'; message: unknown }
  | { call: number; kind: 'metadata'; metadata: [string, string][] }
  | { call: number; kind: 'status'; code: number; name: string; details: string };

/** Watches every gRPC call of a support (`grpcSupport({ wire })`); it must not throw, and it sees credentials: redact them. */
export type GrpcWireWatch = (event: GrpcWireEvent) => void;

/** A gRPC metadata map's entries as text (a binary value as its size). */
export function metadataEntries(map: Record<string, unknown>): [string, string][] {
  return Object.entries(map).map(([name, value]) => [name, typeof value === 'string' ? value : `(${(value as Uint8Array).length} bytes)`]);
}
