import { A2AError } from '../../../../errors.js';
import { requestToken, type AccessToken, type TokenRequest } from './token-request.js';

/** What identifies a cached token: the token endpoint, the client, the scopes. */
export interface TokenKey {
  tokenUrl: string;
  clientId: string;
  scopes: readonly string[];
}

/** How one token is asked for: its key, the secret (or the function that gives it), the client authentication. */
export interface TokenSpec extends TokenKey {
  clientSecret: string | (() => string | Promise<string>);
  clientAuthentication?: TokenRequest['clientAuthentication'];
  /** The configuration entry, for messages (never a value). */
  entry: string;
}

/** The longest a token request may take: past it the turns waiting on it fail and the next call asks again. */
const TOKEN_TIMEOUT_MS = 10_000;
/** How long before its expiry a token is no longer handed out: a quarter of its lifetime, at most 30 s. */
const MAX_MARGIN_MS = 30_000;
/** The most tokens kept (per client factory): the oldest goes first. */
const MAX_TOKENS = 256;

interface Held {
  token?: string;
  /** When the token stops being handed out (its expiry minus a margin); none: until an agent refuses it. */
  until?: number;
  /** The request under way: every caller meanwhile waits on this one. */
  pending?: Promise<string>;
}

/**
 * OAuth 2.0 client-credentials tokens, cached per token endpoint, client and scope set, until shortly
 * before they expire (`expires_in` minus a quarter of it, at most 30 s; a token without `expires_in`
 * until an agent refuses it). Concurrent callers share one request. A token an agent refused is
 * dropped ({@link TokenCache.refused}) so the next call asks for a fresh one. Tokens never leave
 * this object but as the value `token()` resolves to.
 */
export class TokenCache {
  private readonly held = new Map<string, Held>();

  constructor(
    private readonly fetch: typeof globalThis.fetch,
    private readonly clock: () => number = Date.now,
  ) {}

  /** A token for `spec`: the cached one while it is fresh, else the one request under way, else a new request. */
  token(spec: TokenSpec): Promise<string> {
    const id = keyOf(spec);
    let held = this.held.get(id);
    if (held?.token !== undefined && (held.until === undefined || this.clock() < held.until)) return Promise.resolve(held.token);
    if (held?.pending !== undefined) return held.pending;
    if (held === undefined) {
      if (this.held.size >= MAX_TOKENS) this.held.delete(this.held.keys().next().value!);
      held = {};
      this.held.set(id, held);
    }
    const slot = held;
    delete slot.token;
    const pending = this.request(spec).then(
      (answer) => {
        delete slot.pending;
        slot.token = answer.accessToken;
        if (answer.expiresInS === undefined) delete slot.until;
        else {
          const lifetime = answer.expiresInS * 1000;
          slot.until = this.clock() + lifetime - Math.min(MAX_MARGIN_MS, lifetime / 4);
        }
        return answer.accessToken;
      },
      (error: unknown) => {
        delete slot.pending;
        throw error;
      },
    );
    slot.pending = pending;
    return pending;
  }

  /**
   * `token` was refused by an agent (HTTP 401): it is dropped, if it is still the one held for
   * `spec`, so the next call asks for a new one. A token replaced meanwhile is left alone: the
   * concurrent calls refused with the same old token cause one request, not one each.
   */
  refused(spec: TokenKey, token: string): void {
    const held = this.held.get(keyOf(spec));
    if (held?.token === token) delete held.token;
  }

  private async request(spec: TokenSpec): Promise<AccessToken> {
    let clientSecret: string;
    try {
      clientSecret = typeof spec.clientSecret === 'string' ? spec.clientSecret : await spec.clientSecret();
      if (typeof clientSecret !== 'string' || clientSecret === '') throw new TypeError('the client secret function gave no string');
    } catch (cause) {
      throw new A2AError({
        kind: 'auth',
        auth: { sent: 'none' },
        message: `the OAuth client secret function for ${spec.entry} failed`,
        cause,
      });
    }
    return requestToken({
      tokenUrl: spec.tokenUrl,
      clientId: spec.clientId,
      clientSecret,
      scopes: spec.scopes,
      fetch: this.fetch,
      signal: AbortSignal.timeout(TOKEN_TIMEOUT_MS),
      ...(spec.clientAuthentication ? { clientAuthentication: spec.clientAuthentication } : {}),
    });
  }
}

/** The cache key: endpoint, client and the scope set (order-free). */
function keyOf(key: TokenKey): string {
  return JSON.stringify([key.tokenUrl, key.clientId, [...new Set(key.scopes)].sort()]);
}
