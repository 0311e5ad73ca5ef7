/**
 * gRPC support as the core sees it: a loader handed in by the Node entry (`a4h-a2a/node`), so the
 * core entry never names `@grpc/grpc-js` or the SDK's gRPC transport and a browser bundle carries
 * neither. Nothing here imports them; `node.ts` does, and only the Node entry imports `node.ts`.
 */
import type { Transport as SdkTransport } from '@a2a-js/sdk/client';
import { A2AError } from '../../errors.js';
import type { GrpcAddress } from './address.js';

/** The optional peer dependencies a gRPC agent needs, as `npm install` takes them. */
export const GRPC_PACKAGES = '@grpc/grpc-js @bufbuild/protobuf';

/** Why a build without gRPC support cannot call a gRPC interface (the core entry, as in a browser). */
export const GRPC_NODE_ONLY = "gRPC is Node-only: use createA2A from 'a4h-a2a/node' (or createSdkPorts with grpcSupport() from it)";

/** What gRPC support gives once loaded: the SDK's gRPC transport on one channel, and closing that channel. */
export interface GrpcModules {
  /**
   * The SDK's gRPC transport (v1.0, or its v0.3 one when `legacy`) to `address`, on a channel of its
   * own: TLS or plaintext as the address says.
   */
  transport(address: GrpcAddress, legacy: boolean): Promise<SdkTransport>;
  /** Closes the transport's channel (its calls end, its connection closes). */
  close(transport: SdkTransport): void;
}

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

/** gRPC support as the Node entry makes it: what `load` resolves to. */
export interface GrpcLoader extends GrpcSupport {
  load(): Promise<GrpcModules>;
}

/** What `support` loads: only the Node entry's `grpcSupport()` makes gRPC support, so its modules are a {@link GrpcModules}. */
export function loadGrpc(support: GrpcSupport): Promise<GrpcModules> {
  return support.load() as Promise<GrpcModules>;
}

/** The `card` error of a card whose chosen interface is gRPC when gRPC cannot be loaded: `why` says what to do. */
export function grpcUnavailable(why: string, cause?: unknown): A2AError {
  return new A2AError({ kind: 'card', operation: 'card', message: why, ...(cause === undefined ? {} : { cause }) });
}
