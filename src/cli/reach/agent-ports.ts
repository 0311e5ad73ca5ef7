import {
  createNodeFetch,
  createSdkPorts,
  DEFAULT_POLICY,
  grpcSupport,
  type InterfaceOrder,
  type Logger,
  type NodeA2AOptions,
  type SdkPorts,
} from '../../node/index.js';
import { wireLog } from './debug.js';
import type { Io } from '../core/io.js';

/** The ports of a command that talks to an agent without a thread, and what closes them. */
export interface CommandPorts {
  ports: SdkPorts;
  close(): Promise<void>;
}

/**
 * The agent's ports as `createA2A` would make them for Node (undici's fetch, gRPC support), with the
 * command's credentials, client certificate, trust and binding choice; with `debug`, every HTTP request and answer and
 * every gRPC call on stderr, credentials redacted (`--debug`).
 */
export function commandPorts(
  io: Io,
  reach: Pick<NodeA2AOptions, 'credentials' | 'trust' | 'bindings' | 'tls' | 'fetch'>,
  options: {
    debug: boolean;
    logger: Logger;
    interfaceOrder?: InterfaceOrder;
    /** A command's own layer over the fetch (a card file served as the agent's card, the card kept as served). */
    wrapFetch?: (fetch: typeof globalThis.fetch) => typeof globalThis.fetch;
  },
): CommandPorts {
  const { tls, fetch: given, ...rest } = reach;
  // --insecure's fetch when given (it warned already), else Node's pooled one with the client certificate.
  const http = given === undefined ? createNodeFetch(tls === undefined ? {} : { tls }) : undefined;
  const base = given ?? http!.fetch;
  const fetch = options.wrapFetch ? options.wrapFetch(base) : base;
  const wire = options.debug ? wireLog(io, givenHeaders(reach.credentials)) : undefined;
  const ports = createSdkPorts({
    ...rest,
    fetch: wire ? wire.fetch(fetch) : fetch,
    grpc: grpcSupport({ ...(tls === undefined ? {} : { tls }), ...(wire ? { wire: wire.grpc } : {}) }),
    cardTimeoutMs: DEFAULT_POLICY.cardTimeoutMs,
    logger: options.logger,
    ...(options.interfaceOrder ? { interfaceOrder: options.interfaceOrder } : {}),
  });
  return {
    ports,
    close: async () => {
      await ports.close();
      await http?.close();
    },
  };
}

/** The names of the headers the person gave (`-H`, `--svc-param`): `--debug` never shows their values, whatever the name. */
function givenHeaders(credentials: NodeA2AOptions['credentials']): string[] {
  return Object.values(credentials ?? {}).flatMap((entry) =>
    typeof entry === 'object' && typeof entry.headers === 'object' ? Object.keys(entry.headers) : [],
  );
}
