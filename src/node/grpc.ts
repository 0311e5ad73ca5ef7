import { createPrivateKey } from 'node:crypto';
import { loadGrpcWith, type GrpcChannelTls } from '../sdk/wire/bindings/grpc/node.js';
import type { GrpcSupport } from '../sdk/wire/bindings/grpc/support.js';
import type { GrpcWireWatch } from '../sdk/wire/bindings/grpc/wire.js';
import { longestMatch } from '../port/url-scope.js';
import { tlsEntries, type ClientTls, type ClientTlsOption, type Pem } from './tls.js';

/** Options of {@link grpcSupport}. */
export interface GrpcSupportOptions {
  /**
   * Mutual TLS per agent, as the Node `createA2A` takes it: a TLS gRPC interface (`grpcs://`,
   * `https://`, a bare address off loopback) takes the entry of its origin (`https://host:port`), its
   * channel the entry's client certificate, key and CA. A bad entry is a `config` error.
   */
  tls?: ClientTlsOption;
  /**
   * Watches every gRPC call on the wire (the command line's `--debug`): its method and metadata, each
   * message both ways as decoded, the answer's metadata and status. It sees credentials (the
   * `authorization` metadata): whatever it writes must redact them.
   */
  wire?: GrpcWireWatch;
}

/**
 * gRPC support for `createSdkPorts({ grpc: grpcSupport() })`; the Node `createA2A` uses it by itself.
 * `@grpc/grpc-js` and `@bufbuild/protobuf` (optional peer dependencies) and the SDK's gRPC client
 * are loaded the first time an agent's chosen interface is gRPC, never before; without them, such an
 * agent's turn fails with a `card` error naming the packages to install.
 */
export function grpcSupport(options: GrpcSupportOptions = {}): GrpcSupport {
  const entries = tlsEntries(options.tls);
  if (entries.length === 0) return loadGrpcWith(undefined, undefined, options.wire);
  const channelTls: GrpcChannelTls = (address) => {
    const entry = longestMatch(entries, address.origin);
    return entry === undefined ? undefined : channelPem(entry.tls);
  };
  return loadGrpcWith(undefined, channelTls, options.wire);
}

/** An entry as @grpc/grpc-js takes it: Buffers, the CAs in one, the key decrypted (it takes no passphrase). */
function channelPem(tls: ClientTls): ReturnType<GrpcChannelTls> {
  const cas = tls.ca === undefined ? [] : Array.isArray(tls.ca) ? (tls.ca as readonly Pem[]) : [tls.ca as Pem];
  const key =
    tls.key === undefined
      ? null
      : tls.passphrase === undefined
        ? Buffer.from(tls.key)
        : Buffer.from(createPrivateKey({ key: tls.key, passphrase: tls.passphrase }).export({ format: 'pem', type: 'pkcs8' }));
  return {
    ca: cas.length === 0 ? null : Buffer.concat(cas.map((ca) => Buffer.from(`${String(ca).trim()}\n`))),
    key,
    cert: tls.cert === undefined ? null : Buffer.from(tls.cert),
  };
}
