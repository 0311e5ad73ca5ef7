/**
 * gRPC support as the core sees it: a loader handed in by the Node entry (`a4h-a2a/node`), so the
 * core entry never names `@grpc/grpc-js` or the SDK's gRPC transport and a browser bundle carries
 * neither. Nothing here imports them, nor the SDK's types (modules.ts has those); `node.ts` imports them,
 * and only the Node entry imports `node.ts`.
 */
import { A2AError } from '../../../../errors.js';

/** The optional peer dependencies a gRPC agent needs, as `npm install` takes them. */
export const GRPC_PACKAGES = '@grpc/grpc-js @bufbuild/protobuf';

/** Why a build without gRPC support cannot call a gRPC interface (the core entry, as in a browser). */
export const GRPC_NODE_ONLY = "gRPC is Node-only: use createA2A from 'a4h-a2a/node' (or createSdkPorts with grpcSupport() from it)";

/**
 * gRPC support for `createSdkPorts({ grpc })`: `grpcSupport()` from `a4h-a2a/node` makes it (what it
 * loads is the client's own business).
 */
export interface GrpcSupport {
  /**
   * Brings in the SDK's gRPC client and `@grpc/grpc-js`, the first time a gRPC interface is chosen;
   * rejects with a `card` error naming the packages when they are not installed.
   */
  load(): Promise<unknown>;
}

/** The `card` error of a card whose chosen interface is gRPC when gRPC cannot be loaded: `why` says what to do. */
export function grpcUnavailable(why: string, cause?: unknown): A2AError {
  return new A2AError({ kind: 'card', operation: 'card', message: why, ...(cause === undefined ? {} : { cause }) });
}
