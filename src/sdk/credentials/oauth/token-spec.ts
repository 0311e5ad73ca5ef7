import { A2AError } from '../../../errors.js';
import type { CardSummary } from '../../../port/card.js';
import { redactQuery } from '../../../port/card-url.js';
import { shownName } from '../names.js';
import type { OAuthEntry } from './options.js';
import type { TokenSpec } from './token-cache.js';
import { tokenUrlProblem } from './token-request.js';

/**
 * Where an entry's OAuth client asks for the agent's tokens: its own `tokenUrl`, else the token URL
 * of the card's `oauth2` scheme with a client-credentials flow (a required one first); the scopes:
 * its own, else those the card's requirement names for that scheme, else none. Throws an `auth`
 * error when there is no token URL, or the card's is no https:// URL (the secret would go in clear).
 */
export function tokenSpecFor(key: string, oauth: OAuthEntry, card: CardSummary | undefined): TokenSpec {
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
    const problem = tokenUrlProblem(tokenUrl);
    if (problem !== undefined) {
      throw cannot(key, `the token URL ${redactQuery(tokenUrl)} of the card's scheme ${shownName(scheme!.name)} ${problem}`);
    }
  }
  const spec: TokenSpec = {
    tokenUrl,
    clientId: oauth.clientId,
    clientSecret: oauth.clientSecret,
    scopes: oauth.scopes ?? scheme?.scopes ?? [],
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
