import { A2AError } from '../../../errors.js';
import { clientCertificateRefusal, networkCause } from '../../../network-cause.js';
import { clientCertificateError } from '../../http/credentials/auth-error.js';
import { redactQuery } from '../../../port/card-url.js';
import { cardError } from './schema.js';
import { retryAfterOf } from '../../http/retry-after.js';
import { wireMeaning } from '../../wire/classify/wire-errors.js';
import { readBody } from '../../http/body.js';

/** What a card fetch brought back: the parsed JSON, how long it may be cached, how to revalidate it. */
export interface FetchedCard {
  json: unknown;
  /** From `Cache-Control`: `max-age` in ms, 0 for `no-store`/`no-cache`, undefined when absent. */
  maxAgeMs: number | undefined;
  /** Its `ETag` and `Last-Modified`, when it has either and may be stored (not `no-store`). */
  validators?: CardValidators;
}

/** What makes a card's revalidation conditional: its `ETag` and `Last-Modified`, as the server sent them. */
export interface CardValidators {
  etag?: string;
  lastModified?: string;
  /**
   * The URL the card and these validators came from, when it is not the card URL asked for (the old
   * well-known path's, `/.well-known/agent.json`): its revalidation is asked there. Never sent.
   */
  from?: string;
}

/** A revalidation's answer: 304, the card held is still the agent's. */
export interface NotModified {
  notModified: true;
  /** The 304's own `max-age` in ms, undefined when it sends no `Cache-Control` (the stored one stands). */
  maxAgeMs: number | undefined;
  /** The validators to revalidate with next time: the 304's where it sends them, else those sent. */
  validators: CardValidators;
}

/**
 * The card could not be had: the request or its body failed on the way (an `auth` error when the
 * agent refused the TLS handshake for the client certificate).
 */
function unreachable(cardUrl: string, verb: 'fetch' | 'read', cause: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  const refusal = clientCertificateRefusal(cause);
  if (refusal !== undefined) {
    return clientCertificateError(refusal, `could not ${verb} the agent card from ${shown}`, { operation: 'card', agent: shown, cause });
  }
  const why = networkCause(cause);
  return new A2AError({
    kind: 'card',
    // A refused or dropped connection is an agent restarting or a network in trouble, as on any other call.
    retryable: true,
    operation: 'card',
    agent: shown,
    message: `could not ${verb} the agent card from ${shown}${why === undefined ? '' : `: ${why}`}`,
    cause,
  });
}

/**
 * Fetches and parses a card, refusing bodies over `maxBytes`. Aborts with `signal`. With the
 * `validators` of a card held, the request is conditional (`If-None-Match`, `If-Modified-Since`) and
 * a 304 answers {@link NotModified}.
 */
export async function fetchCard(
  fetchImpl: typeof fetch,
  cardUrl: string,
  maxBytes: number,
  signal: AbortSignal,
  validators?: CardValidators,
): Promise<FetchedCard | NotModified> {
  let response: Response;
  try {
    response = await fetchImpl(cardUrl, { headers: cardHeaders(validators), signal });
  } catch (cause) {
    // Ours (the card is behind authentication: an `auth` error) says it better than "could not fetch".
    if (cause instanceof A2AError) throw cause;
    // A revalidation that got no answer at all is asked once more without its conditions: in a
    // browser, a CORS preflight that does not allow If-None-Match fails the request that way.
    if (validators !== undefined && !signal.aborted) return fetchCard(fetchImpl, cardUrl, maxBytes, signal);
    throw unreachable(cardUrl, 'fetch', cause);
  }
  if (response.status === 304 && validators !== undefined) {
    await response.body?.cancel().catch(() => undefined);
    return {
      notModified: true,
      maxAgeMs: maxAgeOf(response.headers.get('cache-control')),
      validators: validatorsOf(response) ?? validators,
    };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const shown = redactQuery(cardUrl);
    const retryAfterMs = retryAfterOf(response);
    throw new A2AError({
      kind: 'card',
      // As the wire table says of the status on any call: 408, 429 and 5xx but 501 are worth another try, the rest final.
      retryable: wireMeaning('http', response.status)?.retryable ?? false,
      operation: 'card',
      agent: shown,
      status: response.status,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      message: `no agent card at ${shown} (HTTP ${response.status})${response.status === 404 ? baseUrlHint(cardUrl) : ''}`,
    });
  }
  let text: string;
  try {
    text = await readBody(response, { maxBytes, tooLarge: () => cardError(cardUrl, `the agent card is larger than ${maxBytes} bytes`) });
  } catch (cause) {
    if (cause instanceof A2AError) throw cause;
    // The connection broke while the body arrived: the card could not be fetched, as above.
    throw unreachable(cardUrl, 'read', cause);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw cardError(cardUrl, 'the agent card is not JSON', cause);
  }
  const cacheControl = response.headers.get('cache-control');
  const fetched: FetchedCard = { json, maxAgeMs: maxAgeOf(cacheControl) };
  const kept = cacheControl !== null && NO_STORE.test(cacheControl) ? undefined : validatorsOf(response);
  if (kept !== undefined) fetched.validators = kept;
  return fetched;
}

/** The well-known path a base URL's card is at. */
const WELL_KNOWN = '/.well-known/agent-card.json';

/**
 * For a card that is not where an agent URL with a path put it: the hint that the URL is perhaps a
 * transport's (`…/a2a/jsonrpc`, the URL a card names for JSON-RPC), not the agent's base URL.
 */
function baseUrlHint(cardUrl: string): string {
  const url = new URL(cardUrl);
  if (!url.pathname.endsWith(WELL_KNOWN) || url.pathname === WELL_KNOWN) return '';
  return `: give the agent's base URL, not a transport's (perhaps ${url.origin}/)`;
}

/**
 * The card request's headers: JSON, the v1.0 card, and the conditions of a revalidation. A
 * conditional request says `Cache-Control: max-age=0` (a browser's revalidation): without it, fetch
 * adds `Cache-Control: no-cache` to any request carrying a condition (the Fetch standard), and
 * servers that honour that (express's `fresh`, so the SDK's card handler) never answer 304.
 */
function cardHeaders(validators: CardValidators | undefined): Record<string, string> {
  const headers: Record<string, string> = { Accept: 'application/json', 'A2A-Version': '1.0' };
  if (validators === undefined) return headers;
  if (validators.etag !== undefined) headers['If-None-Match'] = validators.etag;
  if (validators.lastModified !== undefined) headers['If-Modified-Since'] = validators.lastModified;
  headers['Cache-Control'] = 'max-age=0';
  return headers;
}

/** The most characters of a validator kept: a server's ETag is short; a longer one is not sent back. */
const MAX_VALIDATOR_CHARS = 1_024;

/** A response's `ETag` and `Last-Modified`, when it has either (of a sane length). */
function validatorsOf(response: Response): CardValidators | undefined {
  const etag = response.headers.get('etag');
  const lastModified = response.headers.get('last-modified');
  const validators: CardValidators = {};
  if (etag !== null && etag !== '' && etag.length <= MAX_VALIDATOR_CHARS) validators.etag = etag;
  if (lastModified !== null && lastModified !== '' && lastModified.length <= MAX_VALIDATOR_CHARS) validators.lastModified = lastModified;
  return validators.etag === undefined && validators.lastModified === undefined ? undefined : validators;
}

const NO_STORE = /(^|,)\s*no-store\s*(,|$)/i;

/** `max-age` of a Cache-Control header in ms; 0 when the response must not be reused. */
export function maxAgeOf(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const match = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return match ? Number(match[2]) * 1000 : undefined;
}
