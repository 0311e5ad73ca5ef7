import type { Logger, NodeA2AOptions } from '../node/index.js';
import { commandPorts } from './agent-ports.js';
import type { Io } from './io.js';

/** What a command's client is made with: its options for `createA2A` and what closes what they opened. */
export interface ClientReach {
  options: Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust' | 'fetch' | 'ports'>;
  /** Closes the ports made for `--debug` (after the client's own close); nothing without it. */
  close(): Promise<void>;
}

/**
 * The reach of a command that makes a client (`card`, `chat`, `history`, `resume`): as the flags gave it, or
 * with `--debug` the command's own ports over the wire log (every HTTP request and answer and every
 * gRPC call on stderr, credentials redacted), made with the same credentials, certificates and trust.
 */
export function clientReach(
  io: Io,
  reach: Pick<NodeA2AOptions, 'credentials' | 'tls' | 'trust' | 'fetch'>,
  debug: boolean,
  logger: Logger,
): ClientReach {
  if (!debug) return { options: reach, close: async () => undefined };
  const { ports, close } = commandPorts(io, reach, { debug: true, logger });
  return { options: { ports }, close };
}
