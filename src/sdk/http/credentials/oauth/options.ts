import { A2AError } from '../../../../errors.js';
import { SCOPE } from '../security.js';
import { tokenUrlProblem } from './token-request.js';

/**
 * OAuth 2.0 client credentials (RFC 6749 §4.4) for an agent whose card declares an `oauth2` scheme
 * with a client-credentials flow: the client asks the flow's token URL for an access token, sends it
 * as `Authorization: Bearer …`, reuses it until shortly before it expires, and asks again once when
 * an agent refuses it with HTTP 401.
 */
export interface OAuthClientCredentials {
  /** The client's identifier at the authorization server. */
  clientId: string;
  /** The client's secret, or a function giving it (read at each token request: a secret store's, say). */
  clientSecret: string | (() => string | Promise<string>);
  /**
   * The scopes to ask for. Default: none (the authorization server's default), or with `cardScopes`
   * those the card's security requirement names for the scheme: a card does not choose what is asked
   * of your identity provider unless you allow it.
   */
  scopes?: readonly string[];
  /** Ask for the scopes the card's security requirement names when `scopes` is not given. Default false. */
  cardScopes?: boolean;
  /**
   * The token endpoint, instead of the card's (`https://`, or `http://` on loopback). Give it to pin
   * where the client secret goes. Without it, the client sends the secret to the token URL the card
   * names only when that URL is on the agent's own origin or on one of `trustedTokenOrigins`; any
   * other is an `auth` error and nothing is sent.
   */
  tokenUrl?: string;
  /**
   * The origins (`https://login.example.com`) of identity providers whose token URL the card may name
   * (besides the agent's own origin), when `tokenUrl` is not given.
   */
  trustedTokenOrigins?: readonly string[];
  /** How the client authenticates to the token endpoint: HTTP Basic (`client_secret_basic`, the default) or in the form body. */
  clientAuthentication?: 'client_secret_basic' | 'client_secret_post';
}

/** One entry's OAuth client, checked: the option's fields, its `trustedTokenOrigins` as `URL.origin` spells them. */
export type OAuthEntry = OAuthClientCredentials;

/** A value that cannot break a header or form line. */
const SAFE = /^[^\r\n\0]+$/;

function invalid(key: string, what: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message: `invalid credentials for ${JSON.stringify(key)}: oauth.${what}` });
}

/** Checks an entry's `oauth` once: a bad field is a `config` error naming it, never a value. */
export function checkOAuth(key: string, raw: unknown): OAuthEntry {
  if (typeof raw !== 'object' || raw === null) throw invalid(key, '… must be an object { clientId, clientSecret, scopes?, tokenUrl? }');
  const given = raw as Partial<Record<keyof OAuthClientCredentials, unknown>>;
  if (typeof given.clientId !== 'string' || !SAFE.test(given.clientId))
    throw invalid(key, 'clientId must be a non-empty string without line breaks');
  const secret = given.clientSecret;
  if (typeof secret !== 'function' && (typeof secret !== 'string' || !SAFE.test(secret))) {
    throw invalid(key, 'clientSecret must be a non-empty string without line breaks, or a function');
  }
  const entry: OAuthEntry = { clientId: given.clientId, clientSecret: secret as OAuthEntry['clientSecret'] };
  if (given.scopes !== undefined) {
    if (!Array.isArray(given.scopes) || !given.scopes.every((s) => typeof s === 'string' && SCOPE.test(s))) {
      throw invalid(key, 'scopes must be an array of scope tokens (RFC 6749 §3.3: printable ASCII, no space, " or \\)');
    }
    entry.scopes = [...(given.scopes as string[])];
  }
  if (given.tokenUrl !== undefined) {
    const problem = typeof given.tokenUrl === 'string' ? tokenUrlProblem(given.tokenUrl) : 'is not a URL';
    if (problem !== undefined) throw invalid(key, `tokenUrl ${problem}`);
    entry.tokenUrl = given.tokenUrl as string;
  }
  if (given.cardScopes !== undefined) {
    if (typeof given.cardScopes !== 'boolean') throw invalid(key, 'cardScopes must be true or false');
    entry.cardScopes = given.cardScopes;
  }
  if (given.trustedTokenOrigins !== undefined) entry.trustedTokenOrigins = checkOrigins(key, given.trustedTokenOrigins);
  const method = given.clientAuthentication;
  if (method !== undefined) {
    if (method !== 'client_secret_basic' && method !== 'client_secret_post') {
      throw invalid(key, 'clientAuthentication must be client_secret_basic or client_secret_post');
    }
    entry.clientAuthentication = method;
  }
  return entry;
}

/** `trustedTokenOrigins`, each an origin a token URL may be on (https://, or http:// on loopback), as `URL.origin` spells it. */
function checkOrigins(key: string, raw: unknown): string[] {
  const problem = 'trustedTokenOrigins must be an array of origins (https://host[:port], or http:// on a loopback host)';
  if (!Array.isArray(raw)) throw invalid(key, problem);
  return raw.map((item: unknown) => {
    if (typeof item !== 'string' || tokenUrlProblem(item) !== undefined) throw invalid(key, problem);
    const url = new URL(item);
    if (url.pathname !== '/' || url.search !== '') throw invalid(key, problem);
    return url.origin;
  });
}
