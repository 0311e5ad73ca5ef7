import type { Logger, NodeA2AOptions } from '../../node/index.js';
import { commandPorts } from './agent-ports.js';
import type { Io } from '../core/io.js';

/** What a command's client is made with: its options for `createA2A` (the command's ports) and what closes them. */
export interface ClientReach {
  options: Pick<NodeA2AOptions, 'ports'>;
  /** Closes the ports (after the client's own close). */
  close(): Promise<void>;
}

/**
 * The reach of a command that makes a client (`card`, `chat`, `history`, `resume`): the ports every
 * command reaches its agent through ({@link commandPorts}: the flags' credentials, certificates and
 * trust; with `--debug` every HTTP request and answer and every gRPC call on stderr, credentials
 * redacted), for `createA2A({ ports })`.
 */
export function clientReach(
  io: Io,
  reach: Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust' | 'fetch'>,
  debug: boolean,
  logger: Logger,
): ClientReach {
  const { ports, close } = commandPorts(io, reach, { debug, logger });
  return { options: { ports }, close };
}
