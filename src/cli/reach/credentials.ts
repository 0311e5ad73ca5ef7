import type { AgentCredentials, CredentialsOption } from '../../node/index.js';
import { oauthFrom, OAUTH_OPTIONS, type OAuthFlags } from './oauth.js';
import { UsageError } from '../core/io.js';

/**
 * The flags that give an agent credentials: `-H 'Name: value'` (repeatable, as in curl), `--bearer-env VAR`,
 * `--bearer TOKEN` and `--api-key KEY` (their environment equivalents `A2ACLI_BEARER` and `A2ACLI_API_KEY`),
 * an OAuth client (`--oauth-client-id`, `--oauth-client-secret-env`, `--oauth-scope`, `--oauth-token-url`),
 * and `--svc-param KEY:VALUE` (repeatable: a service parameter, not a credential flag).
 */
export const CREDENTIAL_OPTIONS = {
  header: { type: 'string', short: 'H', multiple: true },
  'bearer-env': { type: 'string' },
  bearer: { type: 'string' },
  'api-key': { type: 'string' },
  'svc-param': { type: 'string', multiple: true },
  ...OAUTH_OPTIONS,
} as const;

/** What the flags gave, parsed. */
export interface CredentialFlags extends OAuthFlags {
  header?: string[] | undefined;
  'bearer-env'?: string | undefined;
}

/** What the configuration resolved (flag, environment, files, a stored token), for the same agent. */
export interface ConfiguredCredentials {
  bearer?: string | undefined;
  apiKey?: string | undefined;
  /** `KEY:VALUE` items. */
  svcParams?: readonly string[] | undefined;
}

/** A header name (RFC 9110 token). */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The credentials the flags give for `agent`, keyed by its origin (so they reach that origin only, the
 * card fetch included):
 * each `-H 'Name: value'` as a header, the token of `--bearer-env VAR` (read from the environment,
 * out of shell history) as a bearer token, and the OAuth client of the `--oauth-*` flags. They go with
 * the card fetch too, but for an OAuth client without `--oauth-token-url` (its token URL is on the card).
 * Undefined when no flag was given. A malformed flag is a usage error that never repeats a value.
 */
export function credentialsFrom(
  flags: CredentialFlags,
  agent: string,
  env: NodeJS.ProcessEnv,
  configured: ConfiguredCredentials = {},
): CredentialsOption | undefined {
  const headers: Record<string, string> = {};
  // A service parameter is a header of the binding (gRPC metadata on gRPC); -H wins over one of the same name.
  for (const item of configured.svcParams ?? []) addHeader(headers, item, '--svc-param', 'KEY:VALUE');
  for (const line of flags.header ?? []) addHeader(headers, line, '--header', "'Name: value'");
  let bearer = oneLine(configured.bearer, '--bearer');
  const apiKey = oneLine(configured.apiKey, '--api-key');
  const variable = flags['bearer-env'];
  if (variable !== undefined) {
    bearer = env[variable];
    if (bearer === undefined || bearer.trim() === '')
      throw new UsageError(`--bearer-env ${variable}: that environment variable is not set or empty`);
    bearer = bearer.trim();
    if (/[\r\n\0]/.test(bearer)) throw new UsageError(`--bearer-env ${variable}: the token must be one line`);
  }
  const oauth = oauthFrom(flags, env);
  if (bearer !== undefined && oauth !== undefined)
    throw new UsageError('--bearer-env and --oauth-client-id both give the bearer token: give one');
  if (bearer === undefined && apiKey === undefined && oauth === undefined && Object.keys(headers).length === 0) return undefined;
  let origin: string;
  try {
    origin = new URL(agent).origin;
  } catch {
    return undefined; // the client refuses the URL itself, with its own message
  }
  // The card fetch too: it goes to the same origin, and some agents keep their card behind the same credentials
  // (an OAuth client learns its token URL from the card, unless it was given). Not with an API key: where it
  // goes is the card's to say, so it cannot go with the card's own fetch.
  const entry: AgentCredentials = { card: apiKey === undefined && (oauth === undefined || oauth.tokenUrl !== undefined) };
  if (bearer !== undefined) entry.bearer = bearer;
  if (apiKey !== undefined) entry.apiKey = apiKey;
  if (Object.keys(headers).length) entry.headers = headers;
  if (oauth !== undefined) entry.oauth = oauth;
  return { [origin]: entry };
}

/** Adds one `Name: value` (or `KEY:VALUE`) header; a malformed one is a usage error that never repeats the value. */
function addHeader(headers: Record<string, string>, line: string, flag: string, form: string): void {
  const colon = line.indexOf(':');
  const name = colon < 0 ? '' : line.slice(0, colon).trim();
  const value = colon < 0 ? '' : line.slice(colon + 1).trim();
  if (!TOKEN.test(name) || value === '' || /[\r\n\0]/.test(value)) {
    throw new UsageError(`${flag} takes ${form} with a non-empty value on one line${TOKEN.test(name) ? ` (the name ${name})` : ''}`);
  }
  headers[name] = value;
}

/** A credential's value, trimmed; one with a line break is a usage error that never repeats it. */
function oneLine(value: string | undefined, flag: string): string | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  if (/[\r\n\0]/.test(value.trim())) throw new UsageError(`${flag}: the credential must be one line`);
  return value.trim();
}
