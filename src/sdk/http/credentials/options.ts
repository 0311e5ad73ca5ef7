import { A2AError } from '../../../errors.js';
import type { CardSummary } from '../../../port/card.js';
import { parseScope, type UrlScope } from '../../../port/url-scope.js';
import { apiKeyNameProblem, TOKEN, type ApiKeyPlace } from './names.js';
import { checkOAuth, type OAuthClientCredentials, type OAuthEntry } from './oauth/options.js';
import type { Caller } from './callers.js';

/** Header names and values to add to a request. */
export type CredentialHeaders = Record<string, string>;

/** What a credentials function learns of the request it is called for (its third argument). */
export interface CredentialsCall {
  /** The agent's card URL (as the first argument). */
  agent: string;
  /** The agent's resolved card (as the second argument); undefined for the fetch of the card itself. */
  card: CardSummary | undefined;
  /**
   * The turn's handle and thread: whose request it is (a turn, a resume, a history page, a cancel, and
   * the CancelTask of an abandoned turn); undefined for the card's fetches and `client.card()`, and for a
   * task resumed without a thread.
   */
  caller?: Caller;
  /**
   * True when the request repeats one the agent refused with HTTP 401: drop any token you cached for
   * this caller and give a fresh one (it is asked once; a second 401 is the `auth` error).
   */
  retry?: boolean;
}

/**
 * Called before every request to the agent, for credentials that expire or differ per person:
 * `agent` is the agent's card URL, `card` its resolved summary (with `securitySchemes`), undefined
 * for the fetch of the card itself, and `call` says whose request it is (`call.caller`: the turn's
 * handle and thread) and whether it repeats a refused one. Cache tokens yourself; a thrown error or
 * a rejected promise fails that call (that person's turn only) with an `auth` error.
 */
export type CredentialsFunction = (
  agent: string,
  card: CardSummary | undefined,
  call: CredentialsCall,
) => CredentialHeaders | Promise<CredentialHeaders>;

/** An API key, and optionally where it goes when the card does not say (or says several places). */
export interface ApiKeyCredential {
  /** The key. */
  value: string;
  /** The card's apiKey scheme to use, by its name in `securitySchemes`, when it declares several. */
  scheme?: string;
  /** Where the key goes: overrides the card (needed when the card declares no apiKey scheme). */
  in?: 'header' | 'query' | 'cookie';
  /** The header, query parameter or cookie name: overrides the card. */
  name?: string;
}

/** The credentials of one agent. Several kinds may be given together; each goes where it belongs. */
export interface AgentCredentials {
  /** A bearer token, sent as `Authorization: Bearer <token>`. */
  bearer?: string;
  /** An API key, sent where the card's apiKey security scheme puts it (header, query or cookie) under the scheme's name. */
  apiKey?: string | ApiKeyCredential;
  /** Static headers, or a function called before every request for fresh ones. */
  headers?: CredentialHeaders | CredentialsFunction;
  /** OAuth 2.0 client credentials: an access token from the card's (or the given) token URL, sent as a bearer token. */
  oauth?: OAuthClientCredentials;
  /** Also send them with the agent card's own fetch (for cards behind authentication). Default false: cards are public. */
  card?: boolean;
}

/**
 * Credentials per agent. Each key is an origin (`https://agent.example`) or a URL prefix
 * (`https://gateway.example/agents/travel/`); an agent takes the entry whose key is the longest
 * prefix of its card URL. A function stands for `{ headers: fn }`.
 */
export type CredentialsOption = Readonly<Record<string, AgentCredentials | CredentialsFunction>>;

/** One checked entry: where it applies and what it sends. */
export interface CredentialEntry extends UrlScope {
  /** The key as written, for messages (never a value). */
  key: string;
  bearer?: string;
  apiKey?: ApiKeyCredential;
  headers?: CredentialHeaders;
  headersFn?: CredentialsFunction;
  oauth?: OAuthEntry;
  card: boolean;
}

/** A value that cannot break a header line (no CR, LF or NUL). */
const SAFE_VALUE = /^[^\r\n\0]*$/;

function invalid(key: string, what: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message: `invalid credentials for ${JSON.stringify(key)}: ${what}` });
}

/** A secret string: non-empty and safe in a header line. Its value never reaches a message. */
function secret(key: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || !SAFE_VALUE.test(value)) {
    throw invalid(key, `${field} must be a non-empty string without line breaks`);
  }
  return value;
}

/** Checks static headers: names are tokens, values are safe. */
export function checkHeaders(key: string, field: string, headers: unknown): CredentialHeaders {
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers))
    throw invalid(key, `${field} must be an object of strings`);
  const out: CredentialHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!TOKEN.test(name)) throw invalid(key, `${field} has a header name that is not a token`);
    out[name] = secret(key, `${field}.${name}`, value);
  }
  return out;
}

function where(key: string): UrlScope {
  const scope = parseScope(key);
  if ('problem' in scope) throw invalid(key, scope.problem);
  return scope;
}

/** Checks the `credentials` option once; a bad entry is a `config` error naming the key and field, never a value. */
export function checkCredentials(option: CredentialsOption | undefined): CredentialEntry[] {
  if (option === undefined) return [];
  if (typeof option !== 'object' || option === null) throw invalid('(credentials)', 'must be an object keyed by origin or URL prefix');
  return Object.entries(option).map(([key, raw]) => {
    const value = typeof raw === 'function' ? { headers: raw } : raw;
    if (typeof value !== 'object' || value === null) throw invalid(key, 'must be an object or a function');
    const entry: CredentialEntry = { key, ...where(key), card: value.card === true };
    if (value.bearer !== undefined) entry.bearer = secret(key, 'bearer', value.bearer);
    if (value.apiKey !== undefined) entry.apiKey = apiKeyOf(key, value.apiKey);
    if (typeof value.headers === 'function') entry.headersFn = value.headers;
    else if (value.headers !== undefined) entry.headers = checkHeaders(key, 'headers', value.headers);
    if (value.oauth !== undefined) entry.oauth = checkOAuth(key, value.oauth);
    if (entry.oauth !== undefined && (entry.bearer !== undefined || hasHeader(entry.headers, 'authorization'))) {
      throw invalid(key, 'oauth sends its token in Authorization, where the bearer token or a header goes too: give one');
    }
    if (
      entry.bearer === undefined &&
      entry.apiKey === undefined &&
      entry.headers === undefined &&
      entry.headersFn === undefined &&
      entry.oauth === undefined
    ) {
      throw invalid(key, 'give a bearer token, an apiKey, oauth, headers or a function');
    }
    const place = entry.apiKey;
    if (place?.in !== undefined && place.name !== undefined) {
      const problem = apiKeyPlaceProblem(entry, place.in, place.name);
      if (problem !== undefined) throw invalid(key, `apiKey.name ${problem}`);
    }
    return entry;
  });
}

/**
 * What is wrong with placing an entry's API key `in` under `name`: the name itself (see
 * {@link apiKeyNameProblem}), or a header the same credentials send already (the bearer token's
 * `Authorization`, one of the static headers, their `Cookie`): one would replace the other.
 */
export function apiKeyPlaceProblem(
  entry: Pick<CredentialEntry, 'bearer' | 'headers' | 'oauth'>,
  place: ApiKeyPlace,
  name: string,
): string | undefined {
  const problem = apiKeyNameProblem(place, name);
  if (problem !== undefined) return problem;
  const header = place === 'header' ? name.toLowerCase() : place === 'cookie' ? 'cookie' : undefined;
  if (header === undefined) return undefined;
  if (header === 'authorization' && (entry.bearer !== undefined || entry.oauth !== undefined)) {
    return 'is where these credentials send their bearer token';
  }
  const named = Object.keys(entry.headers ?? {}).find((n) => n.toLowerCase() === header);
  return named === undefined ? undefined : `would clash with the ${named} header these credentials' headers set`;
}

const hasHeader = (headers: CredentialHeaders | undefined, name: string): boolean =>
  Object.keys(headers ?? {}).some((n) => n.toLowerCase() === name);

function apiKeyOf(key: string, raw: string | ApiKeyCredential): ApiKeyCredential {
  if (typeof raw === 'string') return { value: secret(key, 'apiKey', raw) };
  if (typeof raw !== 'object' || raw === null) throw invalid(key, 'apiKey must be a string or { value, scheme?, in?, name? }');
  const out: ApiKeyCredential = { value: secret(key, 'apiKey.value', raw.value) };
  if (raw.scheme !== undefined) out.scheme = String(raw.scheme);
  if (raw.in !== undefined) {
    if (raw.in !== 'header' && raw.in !== 'query' && raw.in !== 'cookie') throw invalid(key, 'apiKey.in must be header, query or cookie');
    out.in = raw.in;
  }
  if (raw.name !== undefined) {
    if (typeof raw.name !== 'string' || !TOKEN.test(raw.name)) throw invalid(key, 'apiKey.name must be a header, query or cookie name');
    out.name = raw.name;
  }
  return out;
}
