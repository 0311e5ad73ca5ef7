import { A2AError, type AccessToken, type EndpointAnswer, postToEndpoint, redactQuery, tokenUrlProblem } from '../../../node/index.js';

/** The RFC 8628 grant type of the device access token request. */
export const DEVICE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';

/** One device authorization (RFC 8628): where to ask, who asks, for what. */
export interface DeviceLogin {
  /** The device authorization endpoint. */
  deviceUrl: string;
  /** The token endpoint. */
  tokenUrl: string;
  clientId: string;
  /** A confidential client's secret (sent with HTTP Basic); a public client has none. */
  clientSecret?: string;
  scopes?: readonly string[];
  fetch: typeof fetch;
  /** Told the code and the page where the person enters it (the only thing shown). */
  prompt(verificationUri: string, userCode: string, complete: string | undefined): void;
  /** The longest the whole login may take, in milliseconds (the code's own expiry may end it sooner). */
  timeoutMs: number;
  /** Waits between polls (tests' clocks); default a timer. */
  sleep?: (ms: number) => Promise<void>;
}

/** The largest answer read from either endpoint. */
const MAX_BYTES = 64 * 1024;
/** The longest one request may take (the login's deadline may end it sooner). */
const REQUEST_TIMEOUT_MS = 30_000;
const VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Signs in with the device authorization grant (RFC 8628): asks for a device code, shows the person
 * the code and the page, then polls the token endpoint at the interval the server gives (5 s when it
 * gives none; 5 s more after each `slow_down`) until the person approves (the token), refuses
 * (`access_denied`), the code expires, or `timeoutMs` passes. Each request is bounded in time (the
 * login's deadline, 30 s at most) and its answer in size (64 KiB). Errors are `auth` errors naming the
 * endpoint and the server's error code only, never a code, a secret or a token; `timeout` errors
 * naming the endpoint that did not answer in time; `network` errors naming the one not reached.
 */
export async function deviceLogin(login: DeviceLogin): Promise<AccessToken> {
  for (const url of [login.deviceUrl, login.tokenUrl]) {
    const problem = tokenUrlProblem(url);
    if (problem !== undefined) throw authError(`the endpoint ${redactQuery(url)} ${problem}`);
  }
  const sleep = login.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const authorization = await post(
    login,
    login.deviceUrl,
    'device authorization endpoint',
    { client_id: login.clientId, ...scopeOf(login) },
    started + login.timeoutMs,
  );
  if (authorization.status !== 200) throw refused(login.deviceUrl, authorization, 'the device authorization request');
  const deviceCode = text(authorization.json, 'device_code');
  const userCode = text(authorization.json, 'user_code');
  const verificationUri = text(authorization.json, 'verification_uri') ?? text(authorization.json, 'verification_url');
  if (deviceCode === undefined || userCode === undefined || verificationUri === undefined) {
    throw authError(`the device authorization endpoint ${redactQuery(login.deviceUrl)} answered without a device code, user code and page`);
  }
  login.prompt(verificationUri, userCode, text(authorization.json, 'verification_uri_complete'));
  const expiresS = number(authorization.json, 'expires_in') ?? 600;
  const deadline = started + Math.min(login.timeoutMs, expiresS * 1000);
  let intervalMs = (number(authorization.json, 'interval') ?? 5) * 1000;
  for (;;) {
    if (Date.now() + intervalMs > deadline) throw authError('the sign-in was not approved in time: run a4h auth login again');
    await sleep(intervalMs);
    const form = { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: login.clientId };
    const answer = await post(login, login.tokenUrl, 'token endpoint', form, deadline);
    if (answer.status === 200) return tokenOf(answer.json, login.tokenUrl);
    const error = text(answer.json, 'error');
    if (error === 'authorization_pending') continue;
    if (error === 'slow_down') {
      intervalMs += 5000;
      continue;
    }
    if (error === 'access_denied') throw authError('the sign-in was refused (access_denied)');
    if (error === 'expired_token') throw authError('the device code expired before the sign-in was approved: run a4h auth login again');
    throw refused(login.tokenUrl, answer, 'the device access token request');
  }
}

const scopeOf = (login: DeviceLogin): Record<string, string> => (login.scopes?.length ? { scope: login.scopes.join(' ') } : {});

/**
 * A form POST (client authentication by HTTP Basic for a confidential client), its status and JSON body:
 * read by the library's bounded reader (64 KiB at most), within the login's deadline and
 * {@link REQUEST_TIMEOUT_MS}, whichever comes first (a silent or trickling endpoint is a `timeout`
 * error naming it).
 */
async function post(
  login: DeviceLogin,
  url: string,
  name: string,
  form: Record<string, string>,
  deadline: number,
): Promise<EndpointAnswer> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (login.clientSecret !== undefined) {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    headers['Authorization'] = `Basic ${btoa(`${encode(login.clientId)}:${encode(login.clientSecret)}`)}`;
  }
  const left = Math.max(1, Math.min(REQUEST_TIMEOUT_MS, deadline - Date.now()));
  return postToEndpoint({
    url,
    name: `the ${name} ${redactQuery(url)}`,
    headers,
    body: new URLSearchParams(form).toString(),
    fetch: login.fetch,
    signal: AbortSignal.timeout(left),
    maxBytes: MAX_BYTES,
  });
}

const field = (json: unknown, name: string): unknown =>
  typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;
const text = (json: unknown, name: string): string | undefined => {
  const value = field(json, name);
  return typeof value === 'string' && VALUE.test(value) && value.length <= 2048 ? value : undefined;
};
const number = (json: unknown, name: string): number | undefined => {
  const value = Number(field(json, name));
  return Number.isFinite(value) && value > 0 && value < 86_400 ? value : undefined;
};

function tokenOf(json: unknown, tokenUrl: string): AccessToken {
  const token = text(json, 'access_token');
  const type = text(json, 'token_type');
  if (token === undefined || type?.toLowerCase() !== 'bearer') {
    throw authError(`the token endpoint ${redactQuery(tokenUrl)} answered without a usable Bearer access_token`);
  }
  const out: AccessToken = { accessToken: token };
  const expires = number(json, 'expires_in');
  if (expires !== undefined) out.expiresInS = expires;
  const scope = text(json, 'scope');
  if (scope !== undefined) out.scopes = scope.split(' ').filter(Boolean);
  return out;
}

/** A refusal: the status and the server's `error` code when it is a plain one (never its description). */
function refused(url: string, answer: { status: number; json: unknown }, what: string): A2AError {
  const code = text(answer.json, 'error');
  const named = code !== undefined && /^[a-z_]{1,64}$/.test(code) ? `, error "${code}"` : '';
  return authError(`the endpoint ${redactQuery(url)} refused ${what} (HTTP ${answer.status}${named})`);
}

function authError(message: string): A2AError {
  return new A2AError({ kind: 'auth', message, auth: { sent: 'none' } });
}
