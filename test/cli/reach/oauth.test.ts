import { describe, expect, it } from 'vitest';
import { OAUTH_MOUNTS, type OAuthAgents } from '../../../fixtures/agent-oauth.js';
import { REPLY } from '../../../fixtures/index.js';
import { OAUTH_CLIENTS, type OAuthServer } from '../../../fixtures/oauth-provider.js';
import { blocksOf, runCli } from '../run-cli.js';
import { useOAuthAgents } from '../../agent-rig.js';

// The command's OAuth client-credentials flags against a real authorization server (oidc-provider) and SDK
// agents that introspect every token at it.

let server: OAuthServer;
let agents: OAuthAgents;
useOAuthAgents((s, a) => ([server, agents] = [s, a]));

const { id, secret } = OAUTH_CLIENTS.gateway;
const ENV = { A4H_OAUTH_SECRET: secret };
const flags = ['--oauth-client-id', id, '--oauth-client-secret-env', 'A4H_OAUTH_SECRET'];
/** The identity provider is on another origin than the agents: the person names its token URL, and lets the card choose the scopes. */
const pinned = () => [...flags, '--oauth-token-url', server.tokenUrl, '--oauth-card-scopes'];

describe('a4h with --oauth-client-id and --oauth-client-secret-env', () => {
  it("send: the card's token URL on another origin is refused; --oauth-token-url and --oauth-card-scopes: a token on every call; --oauth-scope", async () => {
    const tokens = server.tokenRequests.length;
    const seen = agents.seen.length;
    const refused = await runCli(['send', agents.v1.url(OAUTH_MOUNTS.call), ...flags, 'artifacts'], { env: ENV });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(`is on another origin than the agent (${agents.v1.baseUrl}), so the client secret is not sent there`);
    expect(refused.stderr).toContain(
      `Hint: if ${server.tokenUrl} is your identity provider's token endpoint, name it: --oauth-token-url ${server.tokenUrl}`,
    );
    expect(server.tokenRequests.length).toBe(tokens);
    expect(agents.seen.length).toBe(seen);
    const sent = await runCli(['send', agents.v1.url(OAUTH_MOUNTS.call), ...pinned(), 'artifacts'], { env: ENV });
    expect(blocksOf(sent.stdout)).toBe(REPLY.artifacts);
    expect(sent.code).toBe(0);
    const admin = await runCli(
      [
        'send',
        agents.v1.url(OAUTH_MOUNTS.admin),
        ...flags,
        '--oauth-scope',
        'a2a.admin',
        '--oauth-scope',
        'a2a.call',
        '--oauth-token-url',
        server.tokenUrl,
        'artifacts',
      ],
      { env: ENV },
    );
    expect(blocksOf(admin.stdout)).toBe(REPLY.artifacts);
    expect(admin.code).toBe(0);
    const asked = server.tokenRequests.slice(tokens).map((r) => new URLSearchParams(r.body).get('scope'));
    // With the token URL given, the card's own fetch carries a token too: asked before the card names any scope.
    expect(asked).toEqual([null, 'a2a.call', 'a2a.admin a2a.call']);
    const judged = agents.seen.slice(seen);
    expect(judged.length).toBeGreaterThan(2);
    expect(judged.every((s) => s.accepted)).toBe(true);
  });

  it('card: says an OAuth token is sent; a wrong secret exits 4 naming the endpoint’s error only', async () => {
    const card = await runCli(['card', agents.v1.url(OAUTH_MOUNTS.call), ...pinned()], { env: ENV });
    expect(card.code).toBe(0);
    expect(card.stdout).toMatch(/^Credentials: an OAuth 2.0 access token \(client credentials, Authorization header\), sent to /m);
    const wrong = 'cli-wrong-secret-6f5e4d3c';
    const refused = await runCli(['send', agents.v1.url(OAUTH_MOUNTS.call), ...pinned(), 'artifacts'], {
      env: { A4H_OAUTH_SECRET: wrong },
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      `the token endpoint ${server.tokenUrl} refused the client credentials request (HTTP 401, error "invalid_client")`,
    );
    expect(refused.stderr).toContain('Hint: check the OAuth client (--oauth-client-id, --oauth-client-secret-env) and its token URL');
    expect(refused.stderr + refused.stdout).not.toContain(wrong);
  });

  it('bad usage (2), no secret repeated: an unset variable, a flag without --oauth-client-id, with --bearer-env', async () => {
    const agent = agents.v1.url(OAUTH_MOUNTS.call);
    const cases: [string[], string][] = [
      [
        ['--oauth-client-id', id, '--oauth-client-secret-env', 'A4H_NOT_SET'],
        '--oauth-client-secret-env A4H_NOT_SET: that environment variable is not set or empty',
      ],
      [['--oauth-scope', 'a2a.call'], '--oauth-scope goes with --oauth-client-id'],
      [[...flags, '--bearer-env', 'A4H_OAUTH_SECRET'], '--bearer-env and --oauth-client-id both give the bearer token'],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(['send', agent, ...args, 'hi'], { env: ENV });
      expect([args, code]).toEqual([args, 2]);
      expect(stderr).toContain(message);
      expect(stderr).not.toContain(secret);
    }
  });
});
