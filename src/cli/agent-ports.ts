import type { Logger } from '../logger.js';
import { grpcSupport } from '../node/grpc.js';
import { createNodeFetch } from '../node/fetch.js';
import type { NodeA2AOptions } from '../node/create-a2a.js';
import { createSdkPorts, type InterfaceOrder, type SdkPorts } from '../sdk/ports.js';
import { DEFAULT_POLICY } from '../turn/policy.js';
import { debugFetch } from './debug.js';
import type { Io } from './io.js';

/** The ports of a command that talks to an agent without a thread, and what closes them. */
export interface CommandPorts {
  ports: SdkPorts;
  close(): Promise<void>;
}

/**
 * The agent's ports as `createA2A` would make them for Node (undici's fetch, gRPC support), with the
 * command's credentials, trust and binding choice; with `debug`, every HTTP request and answer on
 * stderr, credentials redacted (`--debug`).
 */
export function commandPorts(
  io: Io,
  reach: Pick<NodeA2AOptions, 'credentials' | 'trust' | 'bindings'>,
  options: { debug: boolean; logger: Logger; interfaceOrder?: InterfaceOrder },
): CommandPorts {
  const http = createNodeFetch();
  const ports = createSdkPorts({
    ...reach,
    fetch: options.debug ? debugFetch(http.fetch, io) : http.fetch,
    grpc: grpcSupport(),
    cardTimeoutMs: DEFAULT_POLICY.cardTimeoutMs,
    logger: options.logger,
    ...(options.interfaceOrder ? { interfaceOrder: options.interfaceOrder } : {}),
  });
  return {
    ports,
    close: async () => {
      await ports.close();
      await http.close();
    },
  };
}
