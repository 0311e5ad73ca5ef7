import { A2AError } from '../../../errors.js';
import type { CardSummary, SecuritySchemeInfo } from '../../../port/card.js';
import {
  apiKeyPlaceProblem,
  checkHeaders,
  type ApiKeyCredential,
  type CredentialEntry,
  type CredentialHeaders,
  type CredentialsCall,
  type CredentialsFunction,
} from './options.js';
import { shownName, type ApiKeyPlace } from './names.js';
import type { Caller } from './callers.js';
import type { TokenCache, TokenSpec } from './oauth/token-cache.js';
import { tokenSpecFor } from './oauth/token-spec.js';

/** What one request gets: its URL (an API key may go in the query), the headers to add, and the values sent (to redact). */
export interface Applied {
  url: string;
  headers: CredentialHeaders;
  values: string[];
  /** What kind of credential went, e.g. `a bearer token (Authorization header)`; never a value. */
  sent: string;
  /** The OAuth access token that went, if one did (for {@link CredentialPlan.refused}). */
  token?: string;
}

/** Whose request the credentials are for, and whether it repeats one refused with HTTP 401. */
export interface ApplyCall {
  caller?: Caller;
  retry?: boolean;
}

/** The credentials of one entry, placed for one agent's card. */
export interface CredentialPlan {
  /** The origin the credentials may go to. */
  origin: string;
  /** What kind of credential is sent, for messages and `a4h card` (a function's header names are known only once called). */
  description: string;
  /** The credentials for a request to `url` (on `origin`), made for `call`'s caller. */
  apply(url: string, call?: ApplyCall): Promise<Applied>;
  /** A request refused with HTTP 401 is worth making once more: an OAuth token or a function gives fresh credentials. */
  renewable: boolean;
  /** The agent refused with HTTP 401 what `applied` carried: its OAuth token is not handed out again. */
  refused(applied: Applied): void;
}

/** Where an API key goes, and the card's scheme that said so (when the credential did not say it all itself). */
interface ApiKeyPlacement {
  in: ApiKeyPlace;
  name: string;
  /** The card's scheme the place or the name came from; undefined when the credential gave both. */
  scheme?: SecuritySchemeInfo;
}

/** Where an API key goes: the credential's own `in`/`name`, else the card's apiKey scheme (the named one, a required one, any). */
function placeApiKey(entry: CredentialEntry, key: ApiKeyCredential, card: CardSummary | undefined): ApiKeyPlacement {
  const schemes = (card?.securitySchemes ?? []).filter((s) => s.type === 'apiKey');
  const scheme: SecuritySchemeInfo | undefined =
    key.scheme !== undefined ? schemes.find((s) => s.name === key.scheme) : (schemes.find((s) => s.required) ?? schemes[0]);
  if (key.scheme !== undefined && scheme === undefined && (key.in === undefined || key.name === undefined)) {
    throw cannotPlace(entry, `the card declares no apiKey scheme named ${JSON.stringify(key.scheme)}`);
  }
  const location = key.in ?? scheme?.in;
  const name = key.name ?? scheme?.paramName;
  if (location === undefined || name === undefined) {
    throw cannotPlace(
      entry,
      card === undefined
        ? 'the card is not read yet, so it cannot say where the API key goes; give apiKey.in and apiKey.name'
        : 'the card declares no apiKey scheme saying where the key goes; give apiKey.in and apiKey.name',
    );
  }
  const placement: ApiKeyPlacement = { in: location, name };
  if (scheme !== undefined && (key.in === undefined || key.name === undefined)) placement.scheme = scheme;
  const problem = apiKeyPlaceProblem(entry, placement.in, placement.name);
  if (problem !== undefined) throw badPlace(entry, placement, problem);
  return placement;
}

/**
 * An API key place a card (or a credential with a card) made that the client refuses: a `card` error
 * naming the scheme and the name (escaped), never the key; with no scheme of the card in it, the
 * credentials' own `config` error (the option's check finds those first).
 */
function badPlace(entry: CredentialEntry, placement: ApiKeyPlacement, problem: string): A2AError {
  const where = `the ${placement.in === 'query' ? 'query parameter' : placement.in} ${shownName(placement.name)}`;
  if (placement.scheme === undefined) {
    return new A2AError({
      kind: 'config',
      operation: 'options',
      message: `invalid credentials for ${JSON.stringify(entry.key)}: apiKey.name ${problem}`,
    });
  }
  return new A2AError({
    kind: 'card',
    operation: 'card',
    message: `the agent card's apiKey scheme ${shownName(placement.scheme.name)} puts the API key in ${where}, which ${problem}; the key configured for ${entry.key} is not sent`,
  });
}

function cannotPlace(entry: CredentialEntry, why: string): A2AError {
  return new A2AError({
    kind: 'auth',
    message: `the API key configured for ${entry.key} cannot be placed: ${why}`,
    auth: { sent: 'none' },
  });
}

/**
 * The headers `fn` gives for a request (told whose it is and whether it repeats a refused one),
 * checked; its failure is the call's `auth` error, with its error as the cause.
 */
async function fromFunction(key: string, fn: CredentialsFunction, call: CredentialsCall): Promise<CredentialHeaders> {
  try {
    return checkHeaders(key, 'the function', await fn(call.agent, call.card, call));
  } catch (cause) {
    throw new A2AError({ kind: 'auth', message: `the credentials function for ${key} failed`, auth: { sent: 'none' }, cause });
  }
}

/**
 * Places an entry's credentials for an agent: the bearer token in `Authorization`, the API key where
 * the card (or the credential) says, static headers as given, and a function's headers fresh for
 * every request. Throws an `auth` error when an API key has no place.
 */
export function planFor(entry: CredentialEntry, agent: string, card: CardSummary | undefined, tokens: TokenCache): CredentialPlan {
  const statics: CredentialHeaders = {};
  const kinds: string[] = [];
  let query: { name: string; value: string } | undefined;
  if (entry.bearer !== undefined) {
    statics['Authorization'] = `Bearer ${entry.bearer}`;
    kinds.push('a bearer token (Authorization header)');
  }
  if (entry.apiKey !== undefined) {
    const place = placeApiKey(entry, entry.apiKey, card);
    if (place.in === 'header') statics[place.name] = entry.apiKey.value;
    else if (place.in === 'cookie') statics['Cookie'] = `${place.name}=${encodeURIComponent(entry.apiKey.value)}`;
    else query = { name: place.name, value: entry.apiKey.value };
    kinds.push(`an API key (${place.in} ${place.name})`);
  }
  if (entry.headers !== undefined) {
    Object.assign(statics, entry.headers);
    kinds.push(`headers ${Object.keys(entry.headers).join(', ')}`);
  }
  let oauth: TokenSpec | undefined;
  if (entry.oauth !== undefined) {
    oauth = tokenSpecFor(entry.key, entry.oauth, card, entry.origin);
    kinds.push('an OAuth 2.0 access token (client credentials, Authorization header)');
  }
  if (entry.headersFn !== undefined) kinds.push('headers from a function');
  const staticValues = [
    ...(entry.bearer === undefined ? [] : [entry.bearer]),
    ...(entry.apiKey === undefined ? [] : [entry.apiKey.value]),
    ...Object.values(entry.headers ?? {}),
  ];
  const description = kinds.join(' and ');
  const fn = entry.headersFn;

  const withToken = async (): Promise<Pick<Applied, 'headers' | 'values' | 'token'>> => {
    if (oauth === undefined) return { headers: statics, values: staticValues };
    const token = await tokens.token(oauth);
    return { headers: { ...statics, Authorization: `Bearer ${token}` }, values: [...staticValues, token], token };
  };

  return {
    origin: entry.origin,
    description,
    renewable: oauth !== undefined || fn !== undefined,
    refused: (applied) => {
      if (oauth !== undefined && applied.token !== undefined) tokens.refused(oauth, applied.token);
    },
    apply: async (url, call = {}) => {
      let target = url;
      if (query !== undefined) {
        const parsed = new URL(url);
        parsed.searchParams.set(query.name, query.value);
        target = parsed.href;
      }
      const base = await withToken();
      if (fn === undefined) return { url: target, ...base, sent: description };
      const fresh = await fromFunction(entry.key, fn, { agent, card, ...call });
      const names = Object.keys(fresh);
      const sent = [
        ...kinds.slice(0, -1),
        names.length ? `headers ${names.join(', ')} from a function` : 'no headers from a function',
      ].join(' and ');
      const applied: Applied = {
        url: target,
        headers: { ...base.headers, ...fresh },
        values: [...base.values, ...Object.values(fresh)],
        sent,
      };
      if (base.token !== undefined) applied.token = base.token;
      return applied;
    },
  };
}
