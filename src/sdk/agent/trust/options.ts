import { A2AError } from '../../../errors.js';
import { longestMatch, parseScope, type UrlScope } from '../../../port/url-scope.js';
import { readJwks, type Jwks, type TrustedKey } from './jwks.js';

/**
 * The keys the client trusts to sign agent cards, and which agents must have a signed card.
 * Cards are checked whenever keys are given: a card signed by none of them gets an `invalid`
 * verdict and one warning, and is still used, unless a signed card is required for its agent.
 */
export interface TrustOption {
  /** JWKS given inline (in Node, read a file with `readJwksFile` from `a4h-a2a/node`). */
  jwks?: Jwks | readonly Jwks[];
  /**
   * JWKS URLs whose keys are trusted: fetched with the client's `fetch` when a signature needs
   * them (bounded, cached), and the only URLs a signature's `jku` may point to.
   */
  jwksUrls?: readonly string[];
  /**
   * Which agents must have a card signed by a trusted key; an unsigned or badly signed card is then a
   * `card` error and nothing is sent to the agent. `true` for every agent; a list of origins or URL
   * prefixes; or an object of them to booleans, where the key with the longest prefix of the card
   * URL decides (as the `credentials` option's keys do). Default: none.
   */
  requireSignedCard?: boolean | readonly string[] | Readonly<Record<string, boolean>>;
  /** The bound on a JWKS fetch. Default 10 s. */
  jwksTimeoutMs?: number;
  /** A JWKS larger than this is refused. Default 64 KiB. */
  jwksMaxBytes?: number;
  /** The longest a fetched JWKS is kept (a shorter `max-age` from its server wins). Default 5 minutes. */
  jwksCacheMs?: number;
}

/** One entry of `requireSignedCard`: where it applies and what it says. */
interface RequireEntry extends UrlScope {
  require: boolean;
}

/** The `trust` option, checked. */
export interface CheckedTrust {
  /** The keys given inline. */
  keys: TrustedKey[];
  /** The trusted JWKS URLs, normalised (`new URL(…).href`). */
  urls: string[];
  /** Whether any key source is configured: without one, signatures are not checked. */
  configured: boolean;
  requireAll: boolean;
  require: RequireEntry[];
  timeoutMs: number;
  maxBytes: number;
  cacheMs: number;
}

function invalid(what: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message: `invalid trust option: ${what}` });
}

const positive = (name: string, value: number | undefined, fallback: number, max: number): number => {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value <= 0 || value > max) throw invalid(`${name} must be a positive integer, at most ${max}`);
  return value;
};

/** A JWKS URL as it is compared with a `jku`: an http(s) URL without user or password, normalised. */
export function normaliseJwksUrl(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username || url.password) return undefined;
  url.hash = '';
  return url.href;
}

/** Checks the `trust` option once; a bad entry is a `config` error naming the field. */
export function checkTrust(option: TrustOption | undefined): CheckedTrust {
  const o = option ?? {};
  const sets = o.jwks === undefined ? [] : Array.isArray(o.jwks) ? (o.jwks as readonly Jwks[]) : [o.jwks as Jwks];
  const keys = sets.flatMap((set, n) => {
    try {
      return readJwks(set);
    } catch (error) {
      throw invalid(`jwks${Array.isArray(o.jwks) ? `.${n}` : ''} is ${(error as Error).message}`);
    }
  });
  const urls = (o.jwksUrls ?? []).map((value, n) => {
    const url = typeof value === 'string' ? normaliseJwksUrl(value) : undefined;
    if (url === undefined) throw invalid(`jwksUrls.${n} must be an http(s) URL without user or password`);
    return url;
  });
  const { requireAll, require } = requireEntries(o.requireSignedCard);
  const configured = sets.length > 0 || urls.length > 0;
  if ((requireAll || require.some((entry) => entry.require)) && !configured) {
    throw invalid('requireSignedCard needs keys to check signatures with: give jwks or jwksUrls');
  }
  return {
    keys,
    urls: [...new Set(urls)],
    configured,
    requireAll,
    require,
    timeoutMs: positive('jwksTimeoutMs', o.jwksTimeoutMs, 10_000, 600_000),
    maxBytes: positive('jwksMaxBytes', o.jwksMaxBytes, 64 * 1024, 16 * 2 ** 20),
    cacheMs: positive('jwksCacheMs', o.jwksCacheMs, 300_000, 86_400_000),
  };
}

function requireEntries(value: TrustOption['requireSignedCard']): { requireAll: boolean; require: RequireEntry[] } {
  if (value === undefined || typeof value === 'boolean') return { requireAll: value === true, require: [] };
  let pairs: [string, unknown][];
  if (Array.isArray(value)) pairs = (value as readonly unknown[]).map((key) => [key as string, true]);
  else if (typeof value === 'object' && value !== null) pairs = Object.entries(value);
  else throw invalid('requireSignedCard must be a boolean, a list of origins or URL prefixes, or an object of them to booleans');
  const require = pairs.map(([key, flag]): RequireEntry => {
    const scope = typeof key === 'string' ? parseScope(key) : { problem: 'must be a string' };
    if ('problem' in scope) throw invalid(`requireSignedCard ${JSON.stringify(key)}: ${scope.problem}`);
    if (typeof flag !== 'boolean') throw invalid(`requireSignedCard ${JSON.stringify(key)} must be true or false`);
    return { ...scope, require: flag };
  });
  return { requireAll: false, require };
}

/** Whether the agent whose card is at `cardUrl` must have a signed card. */
export function requiresSignedCard(trust: CheckedTrust, cardUrl: string): boolean {
  return trust.requireAll || longestMatch(trust.require, cardUrl)?.require === true;
}
