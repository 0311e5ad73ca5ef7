import type { AgentCard as SdkAgentCard, AgentInterface } from '@a2a-js/sdk';
import type { ClientFactory, Client } from '@a2a-js/sdk/client';
import type { Binding, BindingAddress, ClientMaker } from '../wire/bindings/binding.js';
import type { OpenBindings } from '../wire/bindings/open.js';
import type { InterfaceOrder, ProtocolBinding } from '../wire/bindings/options.js';
import { bindingNamed } from '../wire/bindings/registry.js';
import { cardError, type CheckedCard } from './card/schema.js';
import type { CredentialPlan } from '../http/credentials/plan.js';
import { chooseInterface, generationRank, rank, versionNotSupported, type InterfaceChoice } from './choose-interface.js';
import type { AuthDetails } from '../../errors.js';
import type { CardSignature, CardSummary } from '../../port/card.js';
import { cardSummary } from './summary.js';
import type { AgentWire, SdkClientOf, Transport } from '../wire/transports/transport.js';
import { hostOfCard } from './unspecified-host.js';

/** An agent ready for calls: its card summary and the transport of its calls, chosen once. Never changed once made. */
export interface ResolvedAgent {
  readonly summary: Readonly<CardSummary>;
  /** The SDK's client on the chosen interface, made on first need (the extended card is fetched through it). */
  readonly client: SdkClientOf;
  /** How the port's calls reach the agent. */
  readonly transport: Transport;
  /** Its calls speak A2A v0.3 (the extensions header's name, among others, depends on it). */
  readonly legacy: boolean;
  /** What an `auth` error of its calls says: the card's schemes and what kind of credential is sent. */
  readonly auth: AuthDetails;
  /** Its card is of the v0.3 shape and gives no `protocolVersion` (read as v0.3; a card of the first A2A draft has none either). */
  readonly versionUnsaid: boolean;
  /**
   * The same agent in the other protocol generation, on the same interface and with the same summary
   * (for an agent whose card names the wrong one); the other one's other generation is this one.
   */
  otherGeneration(): Promise<ResolvedAgent>;
}

const major = (version: string): number => Number.parseInt(version, 10);

/** A chosen interface, made ready by its binding: its address, and the SDK's factory of its clients. */
export interface Reach {
  readonly address: BindingAddress;
  /** The SDK's factory of the agent's clients, on the fetch of its calls and with its credentials. */
  clients(fetch: typeof globalThis.fetch, plan: CredentialPlan | undefined): ClientFactory;
}

/** How an agent's calls reach it, once its summary is known: a fetch with its credentials, an SDK factory on it. */
export interface AgentLink {
  fetch: typeof fetch;
  /** The SDK's factory of the agent's clients (made by the chosen interface's binding). */
  factory: ClientFactory;
  auth: AuthDetails;
  /** What kind of credential is sent (for the summary), when any. */
  credentials?: string;
  /** The transport of the agent's calls on `client`, for the interface `wire` describes. */
  transport(wire: Omit<AgentWire, 'fetch' | 'auth' | 'watch' | 'outputModes'>, client: SdkClientOf): Promise<Transport>;
}

/** How a card is resolved besides the card itself. */
export interface ResolveOptions {
  /** The bindings of these ports: which may be chosen, and how a chosen one's clients are made. */
  bindings: OpenBindings;
  /** The summary is read from the authenticated extended card. */
  extended?: boolean;
  /**
   * The security schemes credentials are placed by, instead of the card's own (for an extended card:
   * the public card's, so an unsigned extended card cannot widen where secrets go).
   */
  securitySchemes?: CardSummary['securitySchemes'];
  /** Hears that the chosen interface names an unspecified address and which URL is called instead. */
  moved?: (named: string, called: string) => void;
  /** The verdict on the (public) card's signatures, for the summary. */
  signature?: CardSignature;
  /** The binding the `bindings` option forces for this agent. */
  binding?: ProtocolBinding | undefined;
  /** The card's order instead of a4h's, and the oldest protocol version allowed (the `interfaceOrder` option). */
  order?: InterfaceOrder | undefined;
}

/**
 * Turns a validated card into a client on one chosen interface, and the summary the ladder and CLI
 * read. `factory` reads the card; `connect` gives the link of the agent's calls, from its summary.
 * An interface on an unspecified address (`0.0.0.0`, `[::]`) is called on the host the card came from.
 */
export async function resolveAgent(
  factory: ClientFactory,
  checked: CheckedCard,
  cardUrl: string,
  connect: (summary: CardSummary, reach: Reach) => AgentLink,
  options: ResolveOptions,
): Promise<ResolvedAgent> {
  const resolver = factory.options.cardResolver;
  let normalized: SdkAgentCard;
  try {
    normalized = resolver?.normalizeAgentCard ? resolver.normalizeAgentCard(checked.card) : (checked.card as unknown as SdkAgentCard);
  } catch (cause) {
    throw cardError(cardUrl, `the agent card could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  const { chosen, binding, reach } = await choose(normalized.supportedInterfaces ?? [], cardUrl, options);
  const protocolVersion = chosen.protocolVersion || (checked.shape === '0.3' ? '0.3' : '1.0');
  // The SDK picks its wire by the version: anything before 1.0 (a v0.2-era "0.2.5" too) is the v0.3 wire.
  const legacy = major(protocolVersion) < 1;
  const versionUnsaid = checked.shape === '0.3' && !checked.card.protocolVersion;
  const summary = cardSummary(normalized, chosen, protocolVersion, checked, reach.address);
  if ('securitySchemes' in options) {
    if (options.securitySchemes === undefined) delete summary.securitySchemes;
    else summary.securitySchemes = options.securitySchemes;
  }
  const link = connect(summary, reach);
  if (link.credentials) summary.credentials = link.credentials;
  if (options.extended) summary.extended = true;
  if (options.signature) summary.signature = options.signature;

  /** The agent in one generation: a client for its wire (made on first need, and kept), and the transport on it. */
  const generation = async (inLegacy: boolean, wireVersion: string, other: () => Promise<ResolvedAgent>): Promise<ResolvedAgent> => {
    const card = { ...normalized, supportedInterfaces: [{ ...chosen, url: reach.address.target, protocolVersion: wireVersion }] };
    let made: Promise<Client> | undefined;
    const client: SdkClientOf = () =>
      (made ??= link.factory.createFromAgentCard(card).catch((cause: unknown) => {
        throw cardError(cardUrl, `no client could be made for the agent's ${chosen.protocolBinding} interface`, cause);
      }));
    const version = inLegacy ? '0.3' : rank(wireVersion) >= rank('1.1') ? '1.1' : '1.0';
    const wire = { endpoint: chosen.url, agent: summary.url, binding, tenant: summary.tenant, legacy: inLegacy, version } as const;
    const transport = await link.transport(wire, client);
    return { summary, client, transport, legacy: inLegacy, auth: link.auth, versionUnsaid, otherGeneration: other };
  };
  // An agent that answers in the older generation is not followed there below the oldest version allowed.
  const below = options.order?.minVersion !== undefined && !legacy && rank('0.3') < generationRank(options.order.minVersion);
  const resolved = await generation(legacy, legacy ? '0.3' : protocolVersion, () =>
    below
      ? Promise.reject(versionNotSupported(cardUrl, [{ i: { ...chosen, protocolVersion: '0.3' } }], options.order!.minVersion!))
      : generation(!legacy, legacy ? '1.0' : '0.3', async () => resolved),
  );
  return resolved;
}

/**
 * The interface to call (on the card's host when it names an unspecified address), its binding, and
 * how its clients are made. A binding that must load something first (gRPC) does so only once one of
 * its interfaces wins; when it cannot, the choice is made again without it, and a card with nothing
 * else is a `card` error saying why.
 */
async function choose(
  interfaces: readonly AgentInterface[],
  cardUrl: string,
  options: ResolveOptions,
): Promise<{ chosen: AgentInterface; binding: Binding; reach: Reach }> {
  const refused = new Map<Binding, string>();
  const choice: InterfaceChoice = {
    forced: options.binding,
    available: (b) => refused.get(b) ?? options.bindings.available(b),
    order: options.order,
  };
  for (;;) {
    const picked = chooseInterface(interfaces, cardUrl, choice);
    const binding = bindingNamed(picked.protocolBinding)!;
    let maker: ClientMaker;
    try {
      maker = await options.bindings.prepare(binding);
    } catch (cause) {
      refused.set(binding, cause instanceof Error ? cause.message : String(cause));
      choice.cause = cause;
      continue;
    }
    const chosen = reachable(picked, binding, cardUrl, options.moved);
    const reach: Reach = { address: binding.address(chosen.url)!, clients: (fetch, plan) => maker(chosen.url, fetch, plan) };
    return { chosen, binding, reach };
  }
}

/** The interface as it is called: on the card's host when it names an unspecified address. */
function reachable(chosen: AgentInterface, binding: Binding, cardUrl: string, moved: ResolveOptions['moved']): AgentInterface {
  const address = binding.address(chosen.url)!;
  const called = hostOfCard(address.shown, cardUrl);
  if (called === undefined) return chosen;
  const url = binding.onHost(chosen.url, new URL(called).hostname);
  moved?.(address.shown, binding.address(url)?.shown ?? url);
  return { ...chosen, url };
}
