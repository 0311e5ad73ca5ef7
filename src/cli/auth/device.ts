import { A2AError } from '../../errors.js';
import { redactQuery } from '../../port/card-url.js';
import { tokenUrlProblem, type AccessToken } from '../../sdk/credentials/oauth/token-request.js';

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

const MAX_BYTES = 64 * 1024;
const VALUE = /^[\x21-\x7e]([\x20-\x7e]*[\x21-\x7e])?$/;

/**
 * Signs in with the device authorization grant (RFC 8628): asks for a device code, shows the person
 * the code and the page, then polls the token endpoint at the interval the server gives (5 s when it
 * gives none; 5 s more after each `slow_down`) until the person approves (the token), refuses
 * (`access_denied`), the code expires, or `timeoutMs` passes. Errors are `auth` errors naming the
 * endpoint and the server's error code only, never a code, a secret or a token.
 */
export async function deviceLogin(login: DeviceLogin): Promise<AccessToken> {
  for (const url of [login.deviceUrl, login.tokenUrl]) {
    const problem = tokenUrlProblem(url);
    if (problem !== undefined) throw authError(`the endpoint ${redactQuery(url)} ${problem}`);
  }
  const sleep = login.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const authorization = await post(login, login.deviceUrl, { client_id: login.clientId, ...scopeOf(login) });
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
    const answer = await post(login, login.tokenUrl, { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: login.clientId });
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

/** A form POST (client authentication by HTTP Basic for a confidential client), its status and JSON body (bounded). */
async function post(login: DeviceLogin, url: string, form: Record<string, string>): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' };
  if (login.clientSecret !== undefined) {
    const encode = (value: string) => new URLSearchParams({ v: value }).toString().slice(2);
    headers['Authorization'] = `Basic ${btoa(`${encode(login.clientId)}:${encode(login.clientSecret)}`)}`;
  }
  let response: Response;
  try {
    response = await login.fetch(url, { method: 'POST', headers, body: new URLSearchParams(form).toString(), redirect: 'manual' });
  } catch (cause) {
    throw new A2AError({ kind: 'network', message: `the endpoint ${redactQuery(url)} could not be reached`, cause });
  }
  const body = await response.text();
  if (body.length > MAX_BYTES) throw authError(`the endpoint ${redactQuery(url)} answered more than ${MAX_BYTES} bytes`);
  try {
    return { status: response.status, json: JSON.parse(body) as unknown };
  } catch {
    return { status: response.status, json: undefined };
  }
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
