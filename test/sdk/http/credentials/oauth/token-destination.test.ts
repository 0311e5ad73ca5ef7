import { firstValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../../../fixtures/agent-auth.js';
import { OAUTH_MOUNTS, startOAuthAgents, type OAuthAgents } from '../../../../../fixtures/agent-oauth.js';
import { REPLY } from '../../../../../fixtures/index.js';
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from '../../../../../fixtures/oauth-provider.js';
import { client, completed, failed, turn } from '../../../credentials-kit.js';

// Where the OAuth client secret goes, as an attacker who writes the agent's card would have it go: the card's
// token URL is trusted on the agent's own origin only, the card does not choose the scopes asked, and the
// authenticated extended card (never signed) cannot move the secret to another token URL.

let idp: OAuthServer;
let far: OAuthAgents;
let near: AuthAgents;
beforeAll(async () => {
  idp = await startOAuthServer({ ttlS: 60 });
  far = await startOAuthAgents(idp);
  near = await startAuthAgents();
});
afterAll(async () => {
  await far?.close();
  await idp?.close();
  await near?.close();
});

const { id, secret } = OAUTH_CLIENTS.gateway;
const nearClient = { clientId: AUTH_SECRETS.clientId, clientSecret: AUTH_SECRETS.clientSecret };

describe("the card's token URL", () => {
  it('on another origin than the agent: an auth error naming it, nothing sent to it or to the agent', async () => {
    const tokens = idp.tokenRequests.length;
    const seen = far.seen.length;
    const a2a = client({ [far.v1.baseUrl]: { oauth: { clientId: id, clientSecret: secret, cardScopes: true } } });
    let error;
    try {
      error = failed(await turn(a2a, far.v1.url(OAUTH_MOUNTS.call), 'artifacts'));
    } finally {
      await a2a.close();
    }
    expect(error).toMatchObject({ kind: 'auth', auth: { sent: 'none' } });
    expect(error.message).toContain(`the token URL ${idp.tokenUrl} of the card's scheme`);
    expect(error.message).toContain(`is on another origin than the agent (${far.v1.baseUrl})`);
    expect(error.message).not.toContain(secret);
    expect(idp.tokenRequests.length).toBe(tokens);
    expect(far.seen.length).toBe(seen);
  });

  it('on an origin the caller trusts (trustedTokenOrigins) or pinned (tokenUrl): the secret goes there', async () => {
    const origin = new URL(idp.tokenUrl).origin;
    for (const oauth of [{ trustedTokenOrigins: [`${origin}/`] }, { tokenUrl: idp.tokenUrl }]) {
      const tokens = idp.tokenRequests.length;
      const a2a = client({ [far.v1.baseUrl]: { oauth: { clientId: id, clientSecret: secret, cardScopes: true, ...oauth } } });
      try {
        expect(completed(await turn(a2a, far.v1.url(OAUTH_MOUNTS.call), 'artifacts'))).toBe(REPLY.artifacts);
      } finally {
        await a2a.close();
      }
      expect(idp.tokenRequests.length).toBe(tokens + 1);
    }
  });

  it("on the agent's own origin: used without being named", async () => {
    const issued = near.issuer.issued.length;
    const a2a = client({ [near.v1.baseUrl]: { oauth: nearClient } });
    try {
      expect(completed(await turn(a2a, near.v1.url(AUTH_MOUNTS.oauth), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    expect(near.issuer.issued.length).toBe(issued + 1);
  });
});

describe('the scopes asked of the identity provider', () => {
  it("are the caller's, never the card's unless the caller allows it (cardScopes)", async () => {
    const trusted = { trustedTokenOrigins: [new URL(idp.tokenUrl).origin] };
    const asked: (string | null)[] = [];
    for (const oauth of [{}, { cardScopes: true }, { scopes: ['a2a.call'] }]) {
      const tokens = idp.tokenRequests.length;
      const a2a = client({ [far.v1.baseUrl]: { oauth: { clientId: id, clientSecret: secret, ...trusted, ...oauth } } });
      try {
        await turn(a2a, far.v1.url(OAUTH_MOUNTS.admin), 'artifacts'); // the admin mount's card asks for a2a.admin
      } finally {
        await a2a.close();
      }
      asked.push(new URLSearchParams(idp.tokenRequests[tokens]!.body).get('scope'));
    }
    expect(asked).toEqual([null, 'a2a.admin', 'a2a.call']);
  });
});

describe('the authenticated extended card', () => {
  it('naming another token URL: the client secret still goes only where the public card said', async () => {
    const before = near.elsewhere.length;
    const issued = near.issuer.issued.length;
    const a2a = client({ [near.v1.baseUrl]: { oauth: nearClient } });
    try {
      // The extended card is fetched with a token from the public card's token URL, and wins for the interfaces and skills…
      const card = await firstValueFrom(a2a.card(near.v1.url(AUTH_MOUNTS.oauthExtended)));
      expect(card).toMatchObject({ extended: true });
      expect(card.securitySchemes?.[0]?.tokenUrl).toBe(near.tokenUrl);
      // …and the calls after it still get their tokens there.
      expect(completed(await turn(a2a, near.v1.url(AUTH_MOUNTS.oauthExtended), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    expect(near.elsewhere.slice(before)).toEqual([]);
    expect(near.issuer.issued.length).toBeGreaterThan(issued);
  });
});
