import { type OAuthClientCredentials, tokenUrlProblem } from '../../node/index.js';
import { booleanOf } from './config/settings.js';
import { UsageError } from '../core/io.js';

/** The OAuth client-credentials flags: the client id, the environment variable holding its secret, scopes, the token URL. */
export const OAUTH_OPTIONS = {
  'oauth-client-id': { type: 'string' },
  'oauth-client-secret-env': { type: 'string' },
  'oauth-scope': { type: 'string', multiple: true },
  'oauth-token-url': { type: 'string' },
  'oauth-card-scopes': { type: 'boolean' },
} as const;

/** What the OAuth flags gave, parsed. */
export interface OAuthFlags {
  'oauth-client-id'?: string | undefined;
  'oauth-client-secret-env'?: string | undefined;
  'oauth-scope'?: string[] | undefined;
  'oauth-token-url'?: string | undefined;
  /** Ask for the scopes the card names (when no --oauth-scope is given); boolean or its setting's text. */
  'oauth-card-scopes'?: boolean | string | undefined;
}

/** A scope token (RFC 6749 §3.3). */
const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/**
 * The OAuth client the flags give: `--oauth-client-id ID` with `--oauth-client-secret-env VAR` (the
 * secret read from the environment, out of shell history), `--oauth-scope S` (repeatable) and
 * `--oauth-token-url URL` (instead of the card's, which is used only on the agent's own origin), and
 * `--oauth-card-scopes` (ask for the scopes the card names; by default only `--oauth-scope`'s are
 * asked). Undefined without them; a flag without its partner, an unset variable, a bad scope or URL
 * is a usage error that never repeats the secret.
 */
export function oauthFrom(flags: OAuthFlags, env: NodeJS.ProcessEnv): OAuthClientCredentials | undefined {
  const clientId = flags['oauth-client-id'];
  const variable = flags['oauth-client-secret-env'];
  if (clientId === undefined) {
    const stray = (['oauth-client-secret-env', 'oauth-scope', 'oauth-token-url', 'oauth-card-scopes'] as const).find(
      (name) => flags[name] !== undefined && flags[name] !== false,
    );
    if (stray !== undefined) throw new UsageError(`--${stray} goes with --oauth-client-id`);
    return undefined;
  }
  if (clientId.trim() === '' || /[\r\n\0]/.test(clientId)) throw new UsageError('--oauth-client-id takes a non-empty id on one line');
  if (variable === undefined)
    throw new UsageError('--oauth-client-id needs --oauth-client-secret-env VAR (the secret from the environment)');
  const secret = env[variable]?.trim();
  if (secret === undefined || secret === '')
    throw new UsageError(`--oauth-client-secret-env ${variable}: that environment variable is not set or empty`);
  if (/[\r\n\0]/.test(secret)) throw new UsageError(`--oauth-client-secret-env ${variable}: the secret must be one line`);
  const oauth: OAuthClientCredentials = { clientId, clientSecret: secret };
  const scopes = flags['oauth-scope'];
  if (scopes !== undefined) {
    const bad = scopes.find((scope) => !SCOPE.test(scope));
    if (bad !== undefined) throw new UsageError(`--oauth-scope ${JSON.stringify(bad)}: a scope is printable ASCII without spaces, " or \\`);
    oauth.scopes = scopes;
  }
  const cardScopes = flags['oauth-card-scopes'];
  const allowed = typeof cardScopes === 'string' ? booleanOf(cardScopes) : cardScopes;
  if (typeof cardScopes === 'string' && allowed === undefined) throw new UsageError('A2ACLI_OAUTH_CARD_SCOPES takes true or false');
  if (allowed === true) oauth.cardScopes = true;
  const tokenUrl = flags['oauth-token-url'];
  if (tokenUrl !== undefined) {
    const problem = tokenUrlProblem(tokenUrl);
    if (problem !== undefined) throw new UsageError(`--oauth-token-url ${problem}`);
    oauth.tokenUrl = tokenUrl;
  }
  return oauth;
}
