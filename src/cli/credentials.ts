import type { AgentCredentials, CredentialsOption } from '../sdk/credentials/options.js';
import { oauthFrom, OAUTH_OPTIONS, type OAuthFlags } from './oauth.js';
import { UsageError } from './io.js';

/**
 * The flags that give an agent credentials: `-H 'Name: value'` (repeatable, as in curl), `--bearer-env VAR`,
 * and an OAuth client (`--oauth-client-id`, `--oauth-client-secret-env`, `--oauth-scope`, `--oauth-token-url`).
 */
export const CREDENTIAL_OPTIONS = {
  header: { type: 'string', short: 'H', multiple: true },
  'bearer-env': { type: 'string' },
  ...OAUTH_OPTIONS,
} as const;

/** What the flags gave, parsed. */
export interface CredentialFlags extends OAuthFlags {
  header?: string[] | undefined;
  'bearer-env'?: string | undefined;
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
export function credentialsFrom(flags: CredentialFlags, agent: string, env: NodeJS.ProcessEnv): CredentialsOption | undefined {
  const headers: Record<string, string> = {};
  for (const line of flags.header ?? []) {
    const colon = line.indexOf(':');
    const name = colon < 0 ? '' : line.slice(0, colon).trim();
    const value = colon < 0 ? '' : line.slice(colon + 1).trim();
    if (!TOKEN.test(name) || value === '' || /[\r\n\0]/.test(value)) {
      throw new UsageError(
        `--header takes 'Name: value' with a non-empty value on one line${TOKEN.test(name) ? ` (the header ${name})` : ''}`,
      );
    }
    headers[name] = value;
  }
  let bearer: string | undefined;
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
  if (bearer === undefined && oauth === undefined && Object.keys(headers).length === 0) return undefined;
  let origin: string;
  try {
    origin = new URL(agent).origin;
  } catch {
    return undefined; // the client refuses the URL itself, with its own message
  }
  // The card fetch too: it goes to the same origin, and some agents keep their card behind the same credentials
  // (an OAuth client learns its token URL from the card, unless it was given).
  const entry: AgentCredentials = { card: oauth === undefined || oauth.tokenUrl !== undefined };
  if (bearer !== undefined) entry.bearer = bearer;
  if (Object.keys(headers).length) entry.headers = headers;
  if (oauth !== undefined) entry.oauth = oauth;
  return { [origin]: entry };
}
