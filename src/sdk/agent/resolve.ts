import type { AgentCard as SdkAgentCard, AgentInterface } from '@a2a-js/sdk';
import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory, RestTransportFactory, type Client } from '@a2a-js/sdk/client';
import type { ProtocolBinding } from '../bindings/option.js';
import type { CheckedCard } from '../card/schema.js';
import { cardError, SPOKEN_BINDINGS } from '../card/schema.js';
import { chooseInterface } from './choose-interface.js';
import { onHost, parseGrpcAddress, type GrpcAddress } from '../bindings/grpc/address.js';
import { loadGrpc, type GrpcModules } from '../bindings/grpc/modules.js';
import { GRPC_NODE_ONLY, type GrpcSupport } from '../bindings/grpc/support.js';
import type { AuthDetails } from '../../errors.js';
import type { CardExtension, CardSignature, CardSummary } from '../../port/card.js';
import { securitySchemesOf } from '../credentials/security.js';
import { withBothExtensionNames } from '../extensions/headers.js';
import type { AgentWire, Transport } from '../transports/transport.js';
import { hostOfCard } from './unspecified-host.js';

/** An agent ready for calls: its card summary and the transport of its calls, chosen once. Never changed once made. */
export interface ResolvedAgent {
  readonly summary: Readonly<CardSummary>;
  /** The SDK's client on the chosen interface (the extended card is fetched through it). */
  readonly client: Client;
  /** How the port's calls reach the agent. */
  readonly transport: Transport;
  /** Its calls speak A2A v0.3 (the extensions header's name, among others, depends on it). */
  readonly legacy: boolean;
  /** What an `auth` error of its calls says: the card's schemes and what kind of credential is sent. */
  readonly auth: AuthDetails;
  /**
   * The same agent in the other protocol generation, on the same interface and with the same summary
   * (for an agent whose card names the wrong one); the other one's other generation is this one.
   */
  otherGeneration(): Promise<ResolvedAgent>;
}

/**
 * Builds the SDK's factory with the v0.3 compatibility switched on for both the card resolver and
 * the transports (half of it gives confusing errors), every request going through `fetch` (a v0.3
 * call's extensions under both header names: see {@link withBothExtensionNames}).
 */
export function sdkFactory(fetch: typeof globalThis.fetch): ClientFactory {
  const fetchImpl = withBothExtensionNames(fetch);
  const legacyCompat = { enabled: true };
  return new ClientFactory({
    transports: [new JsonRpcTransportFactory({ fetchImpl, legacyCompat }), new RestTransportFactory({ fetchImpl, legacyCompat })],
    preferredTransports: [...SPOKEN_BINDINGS],
    cardResolver: new DefaultAgentCardResolver({ fetchImpl, legacyCompat }),
  });
}

const major = (version: string): number => Number.parseInt(version, 10);

/** A chosen gRPC interface: where it is, and the loaded gRPC support its client is made with. */
export interface GrpcRoute {
  address: GrpcAddress;
  modules: GrpcModules;
}

/** How an agent's calls reach it, once its summary is known: a fetch with its credentials, an SDK factory on it. */
export interface AgentLink {
  fetch: typeof fetch;
  /** The SDK's factory of the agent's clients (for a gRPC interface, one with the gRPC transport and the credentials as metadata). */
  factory: ClientFactory;
  auth: AuthDetails;
  /** What kind of credential is sent (for the summary), when any. */
  credentials?: string;
  /** The transport of the agent's calls on `client`, for the interface `wire` describes. */
  transport(wire: Omit<AgentWire, 'fetch' | 'auth' | 'watch' | 'outputModes'>, client: Client): Transport;
}

/** How a card is resolved besides the card itself. */
export interface ResolveOptions {
  /** The summary is read from the authenticated extended card. */
  extended?: boolean;
  /** Hears that the chosen interface names an unspecified address and which URL is called instead. */
  moved?: (named: string, called: string) => void;
  /** The verdict on the (public) card's signatures, for the summary. */
  signature?: CardSignature;
  /** The binding the `bindings` option forces for this agent. */
  binding?: ProtocolBinding | undefined;
  /** gRPC support (the Node entry's); without it a gRPC interface is never chosen. */
  grpc?: GrpcSupport | undefined;
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
  connect: (summary: CardSummary, grpc?: GrpcRoute) => AgentLink,
  options: ResolveOptions = {},
): Promise<ResolvedAgent> {
  const resolver = factory.options.cardResolver;
  let normalized: SdkAgentCard;
  try {
    normalized = resolver?.normalizeAgentCard ? resolver.normalizeAgentCard(checked.card) : (checked.card as unknown as SdkAgentCard);
  } catch (cause) {
    throw cardError(cardUrl, `the agent card could not be read: ${cause instanceof Error ? cause.message : String(cause)}`, cause);
  }
  const { chosen, grpc } = await choose(normalized.supportedInterfaces ?? [], cardUrl, options);
  const protocolVersion = chosen.protocolVersion || (checked.shape === '0.3' ? '0.3' : '1.0');
  // The SDK picks its wire by the version: anything before 1.0 (a v0.2-era "0.2.5" too) is the v0.3 wire.
  const legacy = major(protocolVersion) < 1;
  const summary = summaryOf(normalized, chosen, protocolVersion, checked, grpc?.address);
  const link = connect(summary, grpc);
  if (link.credentials) summary.credentials = link.credentials;
  if (options.extended) summary.extended = true;
  if (options.signature) summary.signature = options.signature;

  /** The agent in one generation: a client made for its wire, and the transport on it. */
  const generation = async (inLegacy: boolean, wireVersion: string, other: () => Promise<ResolvedAgent>): Promise<ResolvedAgent> => {
    let client: Client;
    try {
      client = await link.factory.createFromAgentCard({
        ...normalized,
        supportedInterfaces: [{ ...chosen, ...(grpc ? { url: grpc.address.target } : {}), protocolVersion: wireVersion }],
      });
    } catch (cause) {
      throw cardError(cardUrl, `no client could be made for the agent's ${chosen.protocolBinding} interface`, cause);
    }
    const wire = { endpoint: chosen.url, agent: summary.url, binding: chosen.protocolBinding, tenant: summary.tenant, legacy: inLegacy };
    return { summary, client, transport: link.transport(wire, client), legacy: inLegacy, auth: link.auth, otherGeneration: other };
  };
  const resolved = await generation(legacy, legacy ? '0.3' : protocolVersion, () =>
    generation(!legacy, legacy ? '1.0' : '0.3', async () => resolved),
  );
  return resolved;
}

/**
 * The interface to call (on the card's host when it names an unspecified address) and, when it is
 * gRPC, the gRPC support loaded for it. gRPC is loaded only once a gRPC interface wins; when it
 * cannot be, the choice is made again without gRPC, and a card with nothing else is a `card` error
 * saying why.
 */
async function choose(
  interfaces: readonly AgentInterface[],
  cardUrl: string,
  options: ResolveOptions,
): Promise<{ chosen: AgentInterface; grpc?: GrpcRoute }> {
  const forced = options.binding;
  let picked = chooseInterface(interfaces, cardUrl, { forced, grpc: options.grpc ? true : GRPC_NODE_ONLY });
  if (picked.protocolBinding.toUpperCase() !== 'GRPC') return { chosen: reachable(picked, cardUrl, options.moved) };
  let modules: GrpcModules;
  try {
    modules = await loadGrpc(options.grpc!);
  } catch (cause) {
    const why = cause instanceof Error ? cause.message : String(cause);
    picked = chooseInterface(interfaces, cardUrl, { forced, grpc: why, cause });
    return { chosen: reachable(picked, cardUrl, options.moved) };
  }
  const chosen = reachableGrpc(picked, cardUrl, options.moved);
  return { chosen, grpc: { address: parseGrpcAddress(chosen.url)!, modules } };
}

/** What the ladder and the CLI read of a card, on its chosen interface. */
function summaryOf(
  normalized: SdkAgentCard,
  chosen: AgentInterface,
  protocolVersion: string,
  checked: CheckedCard,
  grpc: GrpcAddress | undefined,
): CardSummary {
  const summary: CardSummary = {
    name: normalized.name,
    streaming: normalized.capabilities?.streaming === true,
    protocolVersion,
    transport: chosen.protocolBinding,
    url: grpc ? grpc.url : withoutCredentials(chosen.url),
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
  const extensions = extensionsOf(checked);
  if (extensions.length) summary.extensions = extensions;
  return summary;
}

/** The extensions the card declares, as it declares them (the SDK's v0.3 translation is not needed for them: both shapes agree). */
function extensionsOf(checked: CheckedCard): CardExtension[] {
  return (checked.card.capabilities?.extensions ?? []).map((declared) => {
    const extension: CardExtension = { uri: declared.uri, required: declared.required === true };
    if (declared.description) extension.description = declared.description;
    const params = declared.params;
    if (typeof params === 'object' && params !== null && !Array.isArray(params)) extension.params = params as Record<string, unknown>;
    return extension;
  });
}

/** The interface as it is called: on the card's host when it names an unspecified address. */
function reachable(chosen: AgentInterface, cardUrl: string, moved: ResolveOptions['moved']): AgentInterface {
  const called = hostOfCard(chosen.url, cardUrl);
  if (called === undefined) return chosen;
  moved?.(withoutCredentials(chosen.url), withoutCredentials(called));
  return { ...chosen, url: called };
}

/** A gRPC interface as it is called: on the card's host when its address is an unspecified one. */
function reachableGrpc(chosen: AgentInterface, cardUrl: string, moved: ResolveOptions['moved']): AgentInterface {
  const address = parseGrpcAddress(chosen.url)!;
  const called = hostOfCard(address.url, cardUrl);
  if (called === undefined) return chosen;
  const url = onHost(chosen.url, address, new URL(called).hostname);
  moved?.(address.url, parseGrpcAddress(url)?.url ?? url);
  return { ...chosen, url };
}

/** A URL as the summary and error messages show it: never with a user or password. */
function withoutCredentials(url: string): string {
  const parsed = new URL(url);
  parsed.username = '';
  parsed.password = '';
  return parsed.href;
}
