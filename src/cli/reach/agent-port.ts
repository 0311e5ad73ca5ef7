import type { Io } from '../core/io.js';
import { type A2APort, cardUrlOf, type PushConfigPort, silentLogger } from '../../node/index.js';
import { agentSetup } from './agent-options.js';
import { valueOf } from './config/load.js';
import { commandPorts } from './agent-ports.js';
import type { CredentialFlags } from './credentials.js';
import { agentRef, readLocalCard } from './agent-ref.js';
import type { TrustFlags } from './trust.js';
import { interfaceOrderOf, type WireFlags } from './wire-flags.js';

/** The port of the agent a command names, with what its card said and how to let it go. */
export interface AgentPort {
  /** The agent's calls (A2A's and the push-notification configs'): credentials, signed-card trust, bindings and bounds apply. */
  port: A2APort & PushConfigPort;
  /** The agent's card URL (for a card file, the well-known URL of its first interface's origin). */
  cardUrl: string;
  /** The card as the agent served it (or as the file holds it), once `port.card()` has read it. */
  servedCard(): unknown;
  /** Closes the HTTP pool and the gRPC channels. */
  close(): Promise<void>;
}

/**
 * The port of the agent `ref` names (a host, a URL, a card file: {@link agentRef}) through the
 * library's SDK ports, with the command's credential and signed-card flags, and its wire flags when it
 * takes them (`--transport`, `--a2a-version`, `--debug`; without them the card's order, any version). The card's JSON is kept as
 * it was served, for `-o json`. A card file is served to the port as the agent's card at the
 * well-known URL of its first interface's origin, so everything a fetched card goes through (checks,
 * trust, the choice of interface) applies to it, and nothing fetches that URL.
 */
export async function openAgentPort(ref: string, flags: CredentialFlags & TrustFlags & { wire?: WireFlags }, io: Io): Promise<AgentPort> {
  const target = agentRef(ref);
  const local = target.kind === 'file' ? await readLocalCard(target.path) : undefined;
  const agent = local?.cardUrl ?? (target.kind === 'url' ? target.url : '');
  const { options: reach, configuration } = await agentSetup(flags, agent, io);
  let served: unknown;
  let cardUrl = agent;
  const fetchCards =
    (base: typeof fetch): typeof fetch =>
    async (input, init) => {
      const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
      if (local !== undefined && url === local.cardUrl) {
        served = local.json;
        return new Response(JSON.stringify(local.json), { status: 200, headers: { 'content-type': 'application/json' } });
      }
      const response = await base(input, init);
      if (url === cardUrl && response.ok)
        served = await response
          .clone()
          .json()
          .catch(() => undefined);
      return response;
    };
  const wire = flags.wire;
  const { ports, close } = commandPorts(io, reach, {
    debug: wire?.debug === true,
    logger: silentLogger,
    wrapFetch: fetchCards,
    ...(wire === undefined ? {} : { interfaceOrder: interfaceOrderOf(wire, valueOf(configuration, 'a2a-version')) }),
  });
  const port = ports(agent) as A2APort & PushConfigPort;
  cardUrl = cardUrlOfPort(agent);
  return {
    port,
    cardUrl,
    servedCard: () => served,
    close,
  };
}

/** The card URL the port fetches for `agent` (the library's rule), or `agent` itself when it is no URL (the port fails with why). */
function cardUrlOfPort(agent: string): string {
  try {
    return cardUrlOf(agent);
  } catch {
    return agent;
  }
}
