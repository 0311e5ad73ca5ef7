import type { Logger } from '../../../logger.js';
import { redactQuery } from '../../../port/card-url.js';
import type { CardSummary } from '../../../port/card.js';
import { longestMatch } from '../../../port/url-scope.js';
import { checkCredentials, type CredentialEntry, type CredentialsOption } from './options.js';
import { planFor, type CredentialPlan } from './plan.js';
import { TokenCache } from './oauth/token-cache.js';

/** The most (agent, origin) pairs remembered for "logged once". */
const MAX_NOTED = 1_000;

/**
 * The `credentials` option, checked once (a bad entry throws a `config` error), and the rule of where
 * they go. An agent's entry is the one whose key is the longest prefix of its card URL; its
 * credentials go to requests on that entry's origin only. An interface on another origin gets the
 * credentials configured for that origin, if any, and otherwise none (logged once, without values).
 */
export class Credentials {
  private readonly entries: CredentialEntry[];
  private readonly noted = new Set<string>();
  /** OAuth tokens, shared by every agent of these credentials (keyed by token URL, client and scopes). */
  private readonly tokens: TokenCache;

  /** `fetch`: the client's own, which token requests go through; `clock`: token expiry's. */
  constructor(
    option: CredentialsOption | undefined,
    private readonly logger: Logger,
    fetch: typeof globalThis.fetch = (input, init) => globalThis.fetch(input, init),
    clock?: () => number,
  ) {
    this.entries = checkCredentials(option);
    this.tokens = new TokenCache(fetch, clock);
  }

  /** The plan for the card fetch of `cardUrl`: only when its entry asks for it (`card: true`). */
  forCard(cardUrl: string): CredentialPlan | undefined {
    const entry = longestMatch(this.entries, cardUrl);
    return entry?.card ? planFor(entry, cardUrl, undefined, this.tokens) : undefined;
  }

  /**
   * The plan for the calls of the agent at `cardUrl`, whose chosen interface is `card.url` (or, for
   * an interface that is no http(s) URL, a gRPC one, `interfaceUrl`: the http(s) origin it stands for).
   */
  forAgent(cardUrl: string, card: CardSummary, interfaceUrl: string = card.url): CredentialPlan | undefined {
    const own = longestMatch(this.entries, cardUrl);
    const target = new URL(interfaceUrl).origin;
    if (own !== undefined && own.origin === target) return planFor(own, cardUrl, card, this.tokens);
    const there = longestMatch(this.entries, interfaceUrl);
    if (there !== undefined) return planFor(there, cardUrl, card, this.tokens);
    if (own !== undefined) this.noteOnce(cardUrl, own.key, target);
    return undefined;
  }

  private noteOnce(cardUrl: string, key: string, origin: string): void {
    const id = `${cardUrl} ${origin}`;
    if (this.noted.has(id)) return;
    if (this.noted.size >= MAX_NOTED) this.noted.clear();
    this.noted.add(id);
    this.logger.warn(
      { agent: redactQuery(cardUrl), credentials: key, interfaceOrigin: origin },
      "the agent's interface is on another origin than its credentials; none are sent there (configure that origin to send them)",
    );
  }
}
