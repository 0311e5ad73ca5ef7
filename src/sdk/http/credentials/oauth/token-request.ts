import type { A2AError } from '../../../../errors.js';
import { redactQuery } from '../../../../port/card-url.js';
import { endpointError, postToEndpoint } from './endpoint-post.js';

/** One OAuth 2.0 client-credentials token request (RFC 6749 §4.4). */
export interface TokenRequest {
  /** The authorization server's token endpoint: `https://`, or `http://` on a loopback host only (RFC 6749 §3.2 asks for TLS). */
  tokenUrl: string;
  /** The client's identifier. */
  clientId: string;
  /** The client's secret. It goes to the token endpoint only, never into a message or a log. */
  clientSecret: string;
  /** The scopes asked for (`scope`, space-separated); none: the server's default. */
  scopes?: readonly string[];
  /**
   * How the client authenticates: `client_secret_basic` (HTTP Basic, the default, which RFC 6749
   * §2.3.1 asks servers to support) or `client_secret_post` (in the form body).
   */
  clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
  /** The fetch the request goes through (the client's own). */
  fetch: typeof fetch;
  /**
   * Ends the request and the reading of its answer: a `TimeoutError` reason (`AbortSignal.timeout`)
   * is a `timeout` error naming the endpoint, any other reason an `aborted` one.
   */
  signal?: AbortSignal;
}

/** An access token, as the token endpoint answered it. */
export interface AccessToken {
  /** The token: what goes in `Authorization: Bearer …`. */
  accessToken: string;
  /** Its lifetime in seconds (`expires_in`), when the server said it. */
  expiresInS?: number;
  /** The scopes granted, when the server said them (`scope`). */
  scopes?: string[];
}

/** The largest token response read. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** An RFC 6749 §5.2 `error` code: NQSCHAR, bounded. */
const ERROR_CODE = /^[\x20\x21\x23-\x5b\x5d-\x7e]{1,64}$/;
/** A token that can go in a header line: printable ASCII without spaces at its ends. */
const TOKEN_VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Why `url` cannot be a token endpoint (it must be `https://`, or `http://` on a loopback host),
 * or undefined when it can.
 */
export function tokenUrlProblem(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (parsed.username || parsed.password || parsed.hash) return 'must carry no user, password or fragment';
  if (parsed.protocol === 'https:') return undefined;
  const host = parsed.hostname;
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  return parsed.protocol === 'http:' && loopback ? undefined : 'must be https:// (http:// only on a loopback host)';
}

/** `application/x-www-form-urlencoded` of one value, as RFC 6749 §2.3.1 encodes the Basic credentials. */
const formEncoded = (value: string): string => new URLSearchParams({ v: value }).toString().slice(2);

/**
 * Asks `tokenUrl` for an access token with the client-credentials grant (RFC 6749 §4.4): a `POST`
 * of `grant_type=client_credentials` (and `scope`), the client authenticated by HTTP Basic unless
 * told otherwise, no redirect followed (the secret goes to that URL only). Resolves to the token
 * when the server answers 200 with a `Bearer` token. Fails with an `auth` error naming the endpoint
 * (its query redacted) and, for a refusal, the endpoint's `error` code only (never its description,
 * never the secret or a token); with a `network` error when the endpoint cannot be reached; with a
 * `timeout` error naming the endpoint when `signal` times out, while waiting for the answer or
 * while reading it (a trickling body); the answer is read to 64 KiB at most.
 */
export async function requestToken(request: TokenRequest): Promise<AccessToken> {
  const endpoint = redactQuery(request.tokenUrl);
  const problem = tokenUrlProblem(request.tokenUrl);
  if (problem !== undefined) throw tokenError(endpoint, `the token URL ${problem}`);
  const body = new URLSearchParams({ grant_type: 'client_credentials' });
  if (request.scopes?.length) body.set('scope', request.scopes.join(' '));
  const headers: Record<string, string> = {
    'Content-Type': 'application/x-www-form-urlencoded',
    Accept: 'application/json',
  };
  if (request.clientAuthentication === 'client_secret_post') {
    body.set('client_id', request.clientId);
    body.set('client_secret', request.clientSecret);
  } else {
    headers['Authorization'] = `Basic ${btoa(`${formEncoded(request.clientId)}:${formEncoded(request.clientSecret)}`)}`;
  }
  const answer = await postToEndpoint({
    url: request.tokenUrl,
    name: `the token endpoint ${endpoint}`,
    headers,
    body: body.toString(),
    fetch: request.fetch,
    maxBytes: MAX_RESPONSE_BYTES,
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (answer.status !== 200) throw refusal(endpoint, answer.status, answer.json);
  return tokenOf(answer.json, endpoint);
}

const field = (json: unknown, name: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;

/** A refusal: the HTTP status and the endpoint's `error` code, when it is one (its description is left out). */
function refusal(endpoint: string, status: number, json: unknown): A2AError {
  const code = field(json, 'error');
  const named = typeof code === 'string' && ERROR_CODE.test(code) ? `, error ${JSON.stringify(code)}` : '';
  return tokenError(endpoint, `refused the client credentials request (HTTP ${status}${named})`, status);
}

/** The token of a 200 answer, checked: a string fit for a header, of type Bearer, with a sane lifetime. */
function tokenOf(json: unknown, endpoint: string): AccessToken {
  const token = field(json, 'access_token');
  const type = field(json, 'token_type');
  if (typeof token !== 'string' || !TOKEN_VALUE.test(token)) throw tokenError(endpoint, 'answered without a usable access_token');
  if (typeof type !== 'string' || type.toLowerCase() !== 'bearer') {
    throw tokenError(endpoint, 'answered a token whose token_type is not Bearer');
  }
  const out: AccessToken = { accessToken: token };
  const expires = field(json, 'expires_in');
  const seconds = typeof expires === 'string' ? Number(expires) : expires;
  if (typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0) out.expiresInS = seconds;
  const scope = field(json, 'scope');
  if (typeof scope === 'string') out.scopes = scope.split(' ').filter(Boolean).slice(0, 100);
  return out;
}

function tokenError(endpoint: string, what: string, status?: number): A2AError {
  return endpointError(`the token endpoint ${endpoint}`, what, status);
}
