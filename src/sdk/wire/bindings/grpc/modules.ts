/**
 * What the Node entry's gRPC support loads: the SDK's gRPC transport and closing its channel. Apart
 * from support.ts because it names the SDK's `Transport` type: the core entry's declarations reach
 * support.ts (`GrpcSupport` is public) and must not reach the SDK's, which need Node's types
 * (`Buffer`); a browser project compiles the core's types without them.
 */
import type { Transport as SdkTransport } from '@a2a-js/sdk/client';
import type { GrpcAddress } from './address.js';
import type { GrpcSupport } from './support.js';

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

/** gRPC support as the Node entry makes it: what `load` resolves to. */
export interface GrpcLoader extends GrpcSupport {
  load(): Promise<GrpcModules>;
}

/** What `support` loads: only the Node entry's `grpcSupport()` makes gRPC support, so its modules are a {@link GrpcModules}. */
export function loadGrpc(support: GrpcSupport): Promise<GrpcModules> {
  return support.load() as Promise<GrpcModules>;
}
