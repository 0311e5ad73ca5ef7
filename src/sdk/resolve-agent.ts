import type { AgentCard as SdkAgentCard, AgentInterface } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import type { CheckedCard } from './card-schema.js';
import { cardError, SPOKEN_BINDINGS } from './card-schema.js';
import type { AuthDetails } from '../errors.js';
import type { CardSummary } from '../port/types.js';
import { securitySchemesOf } from './credentials/security.js';

/** An agent ready for calls: its card summary and an SDK client on the chosen interface. */
export interface ResolvedAgent {
  summary: CardSummary;
  client: Client;
  /** The chosen interface speaks A2A v0.3. */
  legacy: boolean;
  /** The chosen interface's URL, where its calls go. */
  endpoint: string;
  /** The fetch of its calls: the agent's credentials on its origin, 401/403 as `auth` errors. */
  fetch: typeof fetch;
  /** What an `auth` error of its calls says: the card's schemes and what kind of credential is sent. */
  auth: AuthDetails;
  /** A client of the other protocol generation on the same interface (for an agent whose card says the wrong one). */
  otherGeneration(): Promise<ResolvedAgent>;
  /** Set once the agent answered -32601 to this generation and the other one worked: used from then on. */
  switched?: ResolvedAgent;
}

/**
 * Builds the SDK's factory with the v0.3 compatibility switched on for both the card resolver and
 * the transports (half of it gives confusing errors), every request going through `fetchImpl`.
 */
export function sdkFactory(fetchImpl: typeof fetch): ClientFactory {
  const legacyCompat = { enabled: true };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
    preferredTransports: [...SPOKEN_BINDINGS],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
}

const major = (version: string): number => Number.parseInt(version, 10);

/**
 * Picks the interface to talk to: JSON-RPC before HTTP+JSON, and within a binding the newest
 * protocol version. A card with no `protocolVersion` is a v0.3 card.
 */
export function chooseInterface(interfaces: readonly AgentInterface[], cardUrl: string): AgentInterface {
  for (const binding of SPOKEN_BINDINGS) {
    const candidates = interfaces.filter((i) => i.protocolBinding.toUpperCase() === binding);
    candidates.sort((a, b) => major(b.protocolVersion || '0.3') - major(a.protocolVersion || '0.3'));
    if (candidates[0]) return candidates[0];
  }
  const offered = [...new Set(interfaces.map((i) => i.protocolBinding))].join(', ') || 'none';
  throw cardError(cardUrl, `the agent card offers no interface this client speaks (JSONRPC or HTTP+JSON); it offers: ${offered}`);
}

/** How an agent's calls reach it, once its summary is known: a fetch with its credentials, an SDK factory on it. */
export interface AgentLink {
  fetch: typeof fetch;
  factory: ClientFactory;
  auth: AuthDetails;
  /** What kind of credential is sent (for the summary), when any. */
  credentials?: string;
}

/**
 * Turns a validated card into a client on one chosen interface, and the summary the ladder and CLI
 * read. `factory` reads the card; `connect` gives the link of the agent's calls, from its summary.
 */
export async function resolveAgent(
  factory: ClientFactory,
  checked: CheckedCard,
  cardUrl: string,
  connect: (summary: CardSummary) => AgentLink,
): Promise<ResolvedAgent> {
  const resolver = factory.options.cardResolver;
  let normalized: SdkAgentCard;
  try {
    normalized = resolver?.normalizeAgentCard ? resolver.normalizeAgentCard(checked.card) : (checked.card as unknown as SdkAgentCard);
  } catch (cause) {
    throw cardError(cardUrl, `the agent card could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  const chosen = chooseInterface(normalized.supportedInterfaces ?? [], cardUrl);
  const protocolVersion = chosen.protocolVersion || (checked.shape === '0.3' ? '0.3' : '1.0');
  // The SDK picks its wire by the version: anything before 1.0 (a v0.2-era "0.2.5" too) is the v0.3 wire.
  const legacy = major(protocolVersion) < 1;
  let link: AgentLink | undefined;
  const clientFor = async (wire: string): Promise<Client> => {
    try {
      return await link!.factory.createFromAgentCard({ ...normalized, supportedInterfaces: [{ ...chosen, protocolVersion: wire }] });
    } catch (cause) {
      throw cardError(cardUrl, `no client could be made for the agent's ${chosen.protocolBinding} interface`, cause);
    }
  };
  const summary: CardSummary = {
    name: normalized.name,
    streaming: normalized.capabilities?.streaming === true,
    protocolVersion,
    transport: chosen.protocolBinding,
    url: withoutCredentials(chosen.url),
  };
  if (chosen.tenant) summary.tenant = chosen.tenant;
  if (normalized.description) summary.description = normalized.description;
  if (normalized.skills?.length) {
    summary.skills = normalized.skills.map((s) => ({
      id: s.id,
      name: s.name,
      ...(s.description ? { description: s.description } : {}),
      ...(s.inputModes?.length ? { inputModes: [...s.inputModes] } : {}),
    }));
  }
  if (normalized.defaultInputModes?.length) summary.defaultInputModes = [...normalized.defaultInputModes];
  if (normalized.defaultOutputModes?.length) summary.defaultOutputModes = [...normalized.defaultOutputModes];
  const schemes = securitySchemesOf(checked.card);
  if (schemes.length) summary.securitySchemes = schemes;
  link = connect(summary);
  if (link.credentials) summary.credentials = link.credentials;
  const client = await clientFor(legacy ? '0.3' : protocolVersion);
  const { fetch, auth } = link;
  const resolved: ResolvedAgent = {
    summary,
    client,
    legacy,
    endpoint: chosen.url,
    fetch,
    auth,
    otherGeneration: async () => ({
      summary: { ...summary, protocolVersion: legacy ? '1.0' : '0.3' },
      client: await clientFor(legacy ? '1.0' : '0.3'),
      legacy: !legacy,
      endpoint: chosen.url,
      fetch,
      auth,
      otherGeneration: async () => resolved,
    }),
  };
  return resolved;
}

/** A URL as the summary and error messages show it: never with a user or password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
