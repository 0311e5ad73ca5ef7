import { AgentCard } from '@a2a-js/sdk';
import type { ClientFactory } from '@a2a-js/sdk/client';
import type { Logger } from '../../logger.js';
import type { CardSummary } from '../../port/card.js';
import type { Loaded, Stale } from './card/cache.js';
import type { CardValidators } from './card/fetch.js';
import { fetchCardOrOld } from './card/old-path.js';
import { checkCard, type CheckedCard } from './card/schema.js';
import { agentFetch } from '../wire/fetch/agent-fetch.js';
import { authDetails } from '../http/credentials/auth-error.js';
import type { Credentials } from '../http/credentials/scope.js';
import { redactQuery } from '../../port/card-url.js';
import { withAgentQuery } from '../wire/fetch/agent-query.js';
import type { ResponseWatch } from '../wire/fetch/response-watch.js';
import { classifySdkError } from '../wire/classify/sdk-errors.js';
import type { Bindings } from '../wire/bindings/forced.js';
import type { OpenBindings } from '../wire/bindings/open.js';
import type { InterfaceOrder } from '../wire/bindings/options.js';
import { resolveAgent, type AgentLink, type Reach, type ResolvedAgent } from './resolve.js';
import { chooseTransport } from '../wire/transports/choose.js';
import type { StreamReader } from '../wire/transports/transport.js';
import type { CardTrust } from './trust/trust.js';

/** What loading an agent needs: the fetches, the factory that reads cards, the credentials, the bounds, how its calls go. */
export interface AgentLoader {
  /** The plain fetch (the card's). */
  baseFetch: typeof fetch;
  /** The fetch under every call (statuses, bounded answers, tolerant replies). */
  watch: ResponseWatch;
  /** The factory that normalises cards. */
  factory: ClientFactory;
  credentials: Credentials;
  /** The keys cards are checked with, and which agents must have a signed card. */
  trust: CardTrust;
  cardMaxBytes: number;
  logger: Logger;
  /** `acceptedOutputModes` of every send. */
  outputModes: string[];
  /** Who reads JSON-RPC streams. */
  reader: StreamReader;
  /** The card URLs whose unspecified interface address was logged already: once per agent. */
  movedWarned: Set<string>;
  /** The binding forced per agent (the `bindings` option). */
  forced: Bindings;
  /** The bindings of these ports: which may be chosen, how a chosen one's clients are made. */
  bindings: OpenBindings;
  /** The card's order instead of a4h's (the `interfaceOrder` option), when asked for. */
  order?: InterfaceOrder;
}

/**
 * Fetches, checks and resolves the agent at `cardUrl`; with a `stale` agent whose card had validators,
 * revalidates it instead (a 304 keeps it). `fromBase`: the caller gave a base URL, so a 404 at the
 * well-known path tries the path of A2A v0.2 and earlier (`/.well-known/agent.json`) once. The card's signatures are checked against the trusted keys
 * before anything else is done with it (the wait for keys ends inside the card deadline): an agent
 * that must have a signed card and has none that verifies fails here, so nothing is ever sent to it;
 * a verified card is read from its signed form only. Its calls get a fetch of their own (the
 * agent's credentials on its origin, 401/403 as `auth` errors). When the card offers an
 * authenticated extended card and credentials go to the agent, that card is fetched with them and
 * wins (its interfaces and skills), but credentials are still placed by the public card's security
 * schemes (the public card is the one that may be signed: an extended card, never signed, cannot
 * send a secret anywhere new); an extended card refused for auth fails the load, any other failure
 * of it is logged and the public card used. Under a verified signature, an extended card that would
 * move the calls to another origin is not used either (logged): the signed card says where they go.
 */
export async function loadAgent(
  loader: AgentLoader,
  cardUrl: string,
  signal: AbortSignal,
  stale?: Stale<ResolvedAgent, CardValidators>,
  fromBase = false,
): Promise<Loaded<ResolvedAgent, CardValidators>> {
  const since = loader.trust.monotonic(); // the card deadline counts from here: the wait for a card's keys ends inside it
  const cardPlan = loader.credentials.forCard(cardUrl);
  const cardFetch = agentFetch(loader.baseFetch, cardPlan ? { plan: cardPlan } : {});
  const { fetched, from } = await fetchCardOrOld(cardFetch, cardUrl, loader.cardMaxBytes, signal, stale?.validators, fromBase);
  // 304 (only ever the answer to a revalidation): the agent as it was resolved stands, for the 304's max-age or the one it had.
  if ('notModified' in fetched && stale !== undefined) {
    return { value: stale.value, maxAgeMs: fetched.maxAgeMs ?? stale.maxAgeMs, validators: fetched.validators };
  }
  if ('notModified' in fetched) throw new Error('a 304 to a card request that was not conditional');
  const json = fetched.json as Record<string, unknown>;
  // Its relative addresses are read against the URL it came from (the old well-known path's, when it was there).
  const served = checkCard(json, from);
  const signature = await loader.trust.check(json, served.shape, cardUrl, signal, since);
  // A verified card is used as it was signed: what its signatures do not cover decides nothing.
  const checked = signature.state === 'verified' ? loader.trust.asSigned(json, served.shape, from) : served;
  const loaded = (value: ResolvedAgent): Loaded<ResolvedAgent, CardValidators> =>
    fetched.validators === undefined
      ? { value, maxAgeMs: fetched.maxAgeMs }
      : { value, maxAgeMs: fetched.maxAgeMs, validators: fetched.validators };
  const connect = (summary: CardSummary, reach: Reach): AgentLink => {
    const schemes = summary.securitySchemes ?? [];
    const plan = loader.credentials.forAgent(cardUrl, summary, reach.address.scope);
    const fetch = withAgentQuery(agentFetch(loader.watch.fetch, { schemes, ...(plan ? { plan } : {}) }), cardUrl);
    const auth = authDetails(schemes, plan?.description ?? 'none');
    const { watch, outputModes, reader } = loader;
    return {
      fetch,
      factory: reach.clients(fetch, plan),
      auth,
      ...(plan ? { credentials: plan.description } : {}),
      transport: (wire, client) => chooseTransport({ ...wire, fetch, auth, watch, outputModes }, client, reader),
    };
  };
  const moved = (named: string, called: string): void => {
    if (loader.movedWarned.has(cardUrl)) return;
    if (loader.movedWarned.size >= 1024) loader.movedWarned.clear(); // bounded: a warning again is no harm
    loader.movedWarned.add(cardUrl);
    loader.logger.warn(
      { agent: redactQuery(cardUrl), named, called },
      "the agent card names an unspecified address (a server's bind address); calling the host the card came from",
    );
  };
  const choice = { moved, signature, binding: loader.forced.forAgent(cardUrl), bindings: loader.bindings, order: loader.order };
  const resolved = await resolveAgent(loader.factory, checked, cardUrl, connect, choice);
  if (!offersExtendedCard(checked) || resolved.summary.credentials === undefined) return loaded(resolved);
  let extended: ResolvedAgent;
  try {
    const card = await (await resolved.client()).getAgentCard({ signal });
    extended = await resolveAgent(loader.factory, checkCard(AgentCard.toJSON(card), from), cardUrl, connect, {
      ...choice,
      extended: true,
      securitySchemes: resolved.summary.securitySchemes,
    });
  } catch (error) {
    const classified = classifySdkError(error, { operation: 'card', agent: resolved.summary.url, auth: resolved.auth });
    if (signal.aborted || classified.kind === 'auth') throw classified;
    loader.logger.warn(
      { agent: redactQuery(cardUrl), error: classified.message },
      'the authenticated extended card could not be had; using the public card',
    );
    return loaded(resolved);
  }
  // A signed card says where the agent's calls go: an extended card (never signed) does not move them to another origin.
  if (signature.state === 'verified' && originOf(extended.summary.url) !== originOf(resolved.summary.url)) {
    loader.logger.warn(
      { agent: redactQuery(cardUrl), named: redactQuery(extended.summary.url) },
      "the authenticated extended card moves the agent's calls to another origin than its signed card names; using the signed card",
    );
    return loaded(resolved);
  }
  return loaded(extended);
}

/** A URL's origin, or the URL itself where it has none (a gRPC address). */
function originOf(url: string): string {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? url : origin;
  } catch {
    return url;
  }
}

/** v1.0 `capabilities.extendedAgentCard`, v0.3 `supportsAuthenticatedExtendedCard`. */
function offersExtendedCard(checked: CheckedCard): boolean {
  const card = checked.card as Record<string, unknown>;
  const capabilities = card['capabilities'] as Record<string, unknown> | undefined;
  return capabilities?.['extendedAgentCard'] === true || card['supportsAuthenticatedExtendedCard'] === true;
}
