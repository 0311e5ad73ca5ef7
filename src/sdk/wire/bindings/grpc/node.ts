/**
 * gRPC support on Node: the only module that loads `@grpc/grpc-js` and the SDK's gRPC client
 * transport, both at once and only when a gRPC interface is chosen (a dynamic import), so a client
 * that never meets a gRPC agent never loads them, and one without them installed gets a `card` error
 * naming the packages. Only the Node entry imports this module (the core entry never does).
 */
import type { AgentCard, AgentInterface, StreamResponse } from '@a2a-js/sdk';
import type { Transport as SdkTransport } from '@a2a-js/sdk/client';
import { APPEND_MARK } from '../../mapping/append-mark.js';
import { remember } from '../../mapping/stream-ids.js';
import type { GrpcAddress } from './address.js';
import { keepStreamBytes, keptDecode, type StreamDecode } from './bytes.js';
import { DIRECT_KEY, sinkOf } from './direct.js';
import type { GrpcLoader, GrpcModules } from './modules.js';
import { grpcStatusName } from './status.js';
import { scanGrpcTextChunk, type ScanIds } from './scan.js';
import { GRPC_PACKAGES, grpcUnavailable } from './support.js';
import { metadataEntries, type GrpcWireWatch } from './wire.js';

type GrpcJs = typeof import('@grpc/grpc-js');
type SdkGrpc = typeof import('@a2a-js/sdk/client/grpc');

/** How the two modules are imported: the real dynamic imports, or a test's stand-in. */
export type GrpcImporter = () => Promise<[SdkGrpc, GrpcJs]>;

/**
 * The client certificate, key and CA of a TLS channel to `address` (PEM; each null for none: Node's
 * roots, no client certificate), or undefined for none of them: the Node entry's `tls` option.
 */
export type GrpcChannelTls = (address: GrpcAddress) => { ca: Buffer | null; key: Buffer | null; cert: Buffer | null } | undefined;

const importBoth: GrpcImporter = () => Promise.all([import('@a2a-js/sdk/client/grpc'), import('@grpc/grpc-js')]);

const MISSING = new Set(['ERR_MODULE_NOT_FOUND', 'MODULE_NOT_FOUND']);

/**
 * gRPC support over `importer` (the real dynamic imports by default; tests hand in a failing one).
 * The modules are imported once, on the first gRPC interface chosen; a failed import is tried again
 * next time (the packages may have been installed since).
 */
export function loadGrpcWith(importer: GrpcImporter = importBoth, channelTls?: GrpcChannelTls, wire?: GrpcWireWatch): GrpcLoader {
  let loaded: Promise<GrpcModules> | undefined;
  return {
    load: () => {
      loaded ??= importer().then(
        ([sdk, grpc]) => modulesOf(sdk, grpc, channelTls, wire),
        (error: unknown) => {
          loaded = undefined;
          const code = (error as { code?: unknown } | undefined)?.code;
          const why = MISSING.has(String(code))
            ? `its gRPC interface needs the optional packages ${GRPC_PACKAGES}, which are not installed: npm install ${GRPC_PACKAGES}`
            : `gRPC support could not be loaded (${error instanceof Error ? error.message : String(error)})`;
          throw grpcUnavailable(why, error);
        },
      );
      return loaded;
    },
  };
}

/** The SDK's gRPC transports on channels of their own, over the loaded modules (TLS ones with `channelTls`'s certificates). */
function modulesOf(sdk: SdkGrpc, grpc: GrpcJs, channelTls: GrpcChannelTls | undefined, wire: GrpcWireWatch | undefined): GrpcModules {
  const appendMark = appendMarkInterceptor(grpc);
  const direct = directInterceptor(grpc);
  // The watcher innermost: it sees what goes out after the others' changes, and each message before direct delivery takes it.
  const watched = wire === undefined ? [] : [wireInterceptor(grpc, wire)];
  const secure = (address: GrpcAddress) => {
    const tls = channelTls?.(address);
    return tls === undefined ? grpc.credentials.createSsl() : grpc.credentials.createSsl(tls.ca, tls.key, tls.cert);
  };
  return {
    transport: (address, legacy) => {
      const factory = new sdk.GrpcTransportFactory({
        grpcChannelCredentials: address.tls ? secure(address) : grpc.credentials.createInsecure(),
        // The SDK's v0.3 gRPC client drops `append` (as its HTTP+JSON one does): the mark carries it.
        // A v1.0 stream's messages can go straight to the turn (`direct.ts`): v0.3's need the SDK's translation.
        grpcCallOptions: { interceptors: [legacy ? appendMark : direct, ...watched] },
        legacyCompat: { enabled: true },
      });
      // A v1.0 stream's messages come up as bytes, for direct delivery to read (not under the watcher: it shows them decoded).
      const transport = factory.create(address.target, cardFor(address, legacy));
      return legacy || wire !== undefined ? transport : transport.then((made) => (keepStreamBytes(made), made));
    },
    close: (transport) => {
      const client = (transport as { grpcClient?: unknown }).grpcClient;
      if (client instanceof grpc.Client) grpc.closeClient(client);
    },
  };
}

/** The one-interface card the SDK's factory reads the protocol version from. */
function cardFor(address: GrpcAddress, legacy: boolean): AgentCard {
  const only: AgentInterface = { url: address.target, protocolBinding: 'GRPC', protocolVersion: legacy ? '0.3' : '1.0', tenant: '' };
  return { supportedInterfaces: [only] } as AgentCard;
}

/** What a v0.3 stream event looks like as the SDK's v0.3 codec decoded it. */
interface LegacyEvent {
  payload?: { $case?: string; value?: { append?: boolean; metadata?: Record<string, unknown> } };
}

/**
 * A call interceptor that writes {@link APPEND_MARK} into the metadata of each v0.3 artifact update
 * that says `append`, before the SDK's v0.3 translation (which keeps metadata and drops the flag)
 * reads it; the mapping reads the mark back.
 */
function appendMarkInterceptor(grpc: GrpcJs): import('@grpc/grpc-js').Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) => {
        next(metadata, {
          onReceiveMessage: (message: LegacyEvent, nextMessage) => {
            const payload = message?.payload;
            if (payload?.$case === 'artifactUpdate' && payload.value?.append === true) {
              payload.value.metadata = { ...payload.value.metadata, [APPEND_MARK]: true };
            }
            nextMessage(message);
          },
        });
      },
    });
}

/**
 * The channel interceptor of direct delivery (`direct.ts`): it takes {@link DIRECT_KEY} off every
 * call's metadata (it never goes out), and hands each message of a response stream whose key names an
 * open sink to that sink, then asks for the next one (as the SDK's `Readable` would once it had room),
 * instead of passing it on; the call's metadata and status go on as they came. A unary call, or a key
 * whose sink is closed, passes as it is. A call that keeps its messages' bytes (`bytes.ts`) has a text
 * chunk read from them (`scan.ts`) and any other message decoded by the SDK's decoder, here, for the
 * sink or the SDK alike; one that cannot be decoded ends the call as grpc-js ends it (INTERNAL).
 */
export function directInterceptor(grpc: GrpcJs): import('@grpc/grpc-js').Interceptor {
  return (options, nextCall) => {
    const definition = options.method_definition;
    const decode = keptDecode(definition.responseDeserialize);
    const call: import('@grpc/grpc-js').InterceptingCall = new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, listener, next) => {
        const [key] = metadata.get(DIRECT_KEY);
        metadata.remove(DIRECT_KEY);
        const sink = definition.responseStream && typeof key === 'string' ? sinkOf(key) : undefined;
        if (sink === undefined && decode === undefined) return next(metadata, listener);
        const decoded = (bytes: Buffer): unknown => decodeOrEnd(grpc, call, decode!, bytes);
        const ids: ScanIds = {};
        const onReceiveMessage =
          sink === undefined
            ? (bytes: Buffer) => {
                const message = decoded(bytes);
                if (message !== FAILED) listener.onReceiveMessage(message);
              }
            : (message: unknown) => {
                if (decode === undefined) sink(message);
                else {
                  const event = scanGrpcTextChunk(message as Buffer, ids);
                  if (event !== undefined) sink(event, true);
                  else if ((message = decoded(message as Buffer)) !== FAILED) sink(remember(message as StreamResponse, ids));
                  else return;
                }
                call.startRead();
              };
        const through: import('@grpc/grpc-js').InterceptingListener = {
          onReceiveMetadata: (received) => listener.onReceiveMetadata(received),
          onReceiveMessage,
          onReceiveStatus: (status) => listener.onReceiveStatus(status),
        };
        next(metadata, through);
      },
    });
    return call;
  };
}

/** A message that could not be decoded (its call is ended). */
const FAILED = Symbol('undecodable');

/** `bytes` decoded by the SDK's decoder; when that fails, the call ends with INTERNAL, as grpc-js ends a call whose message it cannot parse. */
function decodeOrEnd(grpc: GrpcJs, call: import('@grpc/grpc-js').InterceptingCall, decode: StreamDecode, bytes: Buffer): unknown {
  try {
    return decode(bytes);
  } catch (error) {
    call.cancelWithStatus(
      grpc.status.INTERNAL,
      `Response message parsing error: ${error instanceof Error ? error.message : String(error)}`,
    );
    return FAILED;
  }
}

/** A call interceptor that tells `watch` each call's method and metadata, each message both ways, the answer's metadata and status. */
function wireInterceptor(grpc: GrpcJs, watch: GrpcWireWatch): import('@grpc/grpc-js').Interceptor {
  let calls = 0;
  return (options, nextCall) => {
    const call = ++calls;
    return new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, listener, next) => {
        watch({ call, kind: 'start', method: options.method_definition.path, metadata: metadataEntries(metadata.getMap()) });
        next(metadata, {
          onReceiveMetadata: (received, nextMetadata) => {
            watch({ call, kind: 'metadata', metadata: metadataEntries(received.getMap()) });
            nextMetadata(received);
          },
          onReceiveMessage: (message: unknown, nextMessage) => {
            watch({ call, kind: 'receive', message });
            nextMessage(message);
          },
          onReceiveStatus: (status, nextStatus) => {
            watch({ call, kind: 'status', code: status.code, name: grpcStatusName(status.code), details: status.details });
            nextStatus(status);
          },
        });
      },
      sendMessage: (message: unknown, next) => {
        watch({ call, kind: 'send', message });
        next(message);
      },
    });
  };
}
