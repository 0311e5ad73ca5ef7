import { A2AError } from '../../../../errors.js';
import type { CardSummary } from '../../../../port/card.js';
import { redactQuery } from '../../../../port/card-url.js';
import { shownName } from '../names.js';
import type { OAuthEntry } from './options.js';
import type { TokenSpec } from './token-cache.js';
import { tokenUrlProblem } from './token-request.js';

/**
 * Where an entry's OAuth client asks for the agent's tokens: its own `tokenUrl`, else the token URL
 * of the card's `oauth2` scheme with a client-credentials flow (a required one first), only when that
 * URL is on the agent's origin (`agentOrigin`) or on an origin the entry trusts; the scopes: its own,
 * else, when it allows it, those the card's requirement names for that scheme, else none. Throws an
 * `auth` error (nothing sent) when there is no token URL, when the card's is no https:// URL (the
 * secret would go in clear), or when it is on an origin the caller did not name.
 */
export function tokenSpecFor(key: string, oauth: OAuthEntry, card: CardSummary | undefined, agentOrigin: string): TokenSpec {
  const scheme = card?.securitySchemes?.find((s) => s.type === 'oauth2' && s.tokenUrl !== undefined);
  const tokenUrl = oauth.tokenUrl ?? scheme?.tokenUrl;
  if (tokenUrl === undefined) {
    throw cannot(
      key,
      card === undefined
        ? 'the card is not read yet, so it cannot name the token URL; give oauth.tokenUrl'
        : 'the card declares no OAuth 2.0 scheme with a client-credentials token URL; give oauth.tokenUrl',
    );
  }
  if (oauth.tokenUrl === undefined) {
    const named = `the token URL ${redactQuery(tokenUrl)} of the card's scheme ${shownName(scheme!.name)}`;
    const problem = tokenUrlProblem(tokenUrl);
    if (problem !== undefined) throw cannot(key, `${named} ${problem}`);
    const origin = new URL(tokenUrl).origin;
    if (origin !== agentOrigin && !(oauth.trustedTokenOrigins ?? []).includes(origin)) {
      throw cannot(
        key,
        `${named} is on another origin than the agent (${agentOrigin}), so the client secret is not sent there; ` +
          `give oauth.tokenUrl, or name ${origin} in oauth.trustedTokenOrigins, if it is your identity provider`,
      );
    }
  }
  const spec: TokenSpec = {
    tokenUrl,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    scopes: oauth.scopes ?? (oauth.cardScopes === true ? scheme?.scopes : undefined) ?? [],
    entry: key,
  };
  if (oauth.clientAuthentication !== undefined) spec.clientAuthentication = oauth.clientAuthentication;
  return spec;
}

function cannot(key: string, why: string): A2AError {
  return new A2AError({
    kind: 'auth',
    auth: { sent: 'none' },
    message: `the OAuth client configured for ${key} cannot get a token: ${why}`,
  });
}
