/**
 * `a4h auth login`: an OAuth access token got once (client credentials at the fixture agent's token
 * endpoint; the device code flow at oidc-provider on loopback, approved through its models as a
 * person would on its page), stored in <config dir>/tokens.json with mode 0600, sent as a bearer
 * token on later commands to that agent, never printed; `auth logout` removes it. HOME and
 * XDG_CONFIG_HOME point at a temporary directory.
 */
import { chmodSync, chownSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../fixtures/agent-auth.js';
import { OAUTH_MOUNTS, startOAuthAgents, type OAuthAgents } from '../../../fixtures/agent-oauth.js';
import { REPLY } from '../../../fixtures/index.js';
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from '../../../fixtures/oauth-provider.js';
import { runCli, startCli } from '../run-cli.js';

let agents: AuthAgents;
let provider: OAuthServer;
let oauthAgents: OAuthAgents;
let root: string;
beforeAll(async () => {
  agents = await startAuthAgents();
  provider = await startOAuthServer();
  oauthAgents = await startOAuthAgents(provider);
});
afterAll(async () => {
  await Promise.all([agents.close(), oauthAgents.close()]);
  await provider.close();
});
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'a4h-auth-'));
  return () => rmSync(root, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}) => ({ HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'xdg'), ...extra });
/** A tokens-file entry for the bearer agent, as a4h auth login stores it (its expiry left to the test). */
const STORED = {
  accessToken: AUTH_SECRETS.bearer,
  tokenType: 'Bearer',
  flow: 'client_credentials',
  tokenUrl: 'http://127.0.0.1:9/token',
};
const tokensPath = () => join(root, 'xdg', 'a4h', 'tokens.json');
const stored = () =>
  JSON.parse(readFileSync(tokensPath(), 'utf8')) as Record<string, { accessToken: string; expiresAt?: number; flow: string }>;

describe('a4h auth login: client credentials', { timeout: 90_000 }, () => {
  it('stores the token 0600 (never shown); later commands on that agent send it; logout removes it', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.oauth);
    const secrets = { CLIENT_SECRET: AUTH_SECRETS.clientSecret };
    const login = await runCli(
      ['auth', 'login', url, '--oauth-client-id', AUTH_SECRETS.clientId, '--oauth-client-secret-env', 'CLIENT_SECRET'],
      {
        env: env(secrets),
      },
    );
    expect(login.code, login.stderr).toBe(0);
    expect(login.stdout).toContain(`Token: stored in ${tokensPath()} (never shown)\n`);
    expect(login.stdout).toMatch(/^Flow: client_credentials$/m);
    expect(login.stdout).toMatch(/^Expires: \d{4}-.* \(in \d+ s\)$/m);
    expect(statSync(tokensPath()).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'xdg', 'a4h')).mode & 0o777).toBe(0o700);
    const token = stored()[new URL(url).origin]!.accessToken;
    expect(token.length).toBeGreaterThan(8);
    expect(login.stdout + login.stderr).not.toContain(token);
    expect(login.stdout + login.stderr).not.toContain(AUTH_SECRETS.clientSecret);

    const from = agents.v1.received.length;
    const turn = await runCli(['send', url, 'artifacts'], { env: env() });
    expect(turn.stdout, turn.stderr).toContain(REPLY.artifacts);
    expect(turn.stdout + turn.stderr).not.toContain(token);
    const calls = agents.v1.received.slice(from).filter((request) => request.method !== 'GET /.well-known/agent-card.json');
    expect(calls.length).toBeGreaterThan(0);
    for (const request of calls) expect(request.headers['authorization']).toBe(`Bearer ${token}`);
    const shown = await runCli(['config', 'show', url], { env: env() });
    expect(shown.stdout).toContain(`bearer: set (hidden) (source: auth login (${tokensPath()}))`);

    const logout = await runCli(['auth', 'logout', url], { env: env() });
    expect(logout.code).toBe(0);
    expect(stored()[new URL(url).origin]).toBeUndefined();
    expect((await runCli(['send', url, 'artifacts'], { env: env() })).code).not.toBe(0);
  });

  it("the card's token URL on another origin than the agent: bad usage naming it, the secret sent nowhere", async () => {
    const tokens = provider.tokenRequests.length;
    const url = oauthAgents.v1.url(OAUTH_MOUNTS.call);
    const { id, secret } = OAUTH_CLIENTS.gateway;
    const login = await runCli(['auth', 'login', url, '--oauth-client-id', id, '--oauth-client-secret-env', 'CLIENT_SECRET'], {
      env: env({ CLIENT_SECRET: secret }),
    });
    expect(login.code).toBe(2);
    expect(login.stderr).toContain(`the agent's card names the token URL ${provider.tokenUrl}, on another origin than the agent`);
    expect(login.stderr).toContain('(--oauth-token-url URL)');
    expect(provider.tokenRequests.length).toBe(tokens);
    expect(login.stdout + login.stderr).not.toContain(secret);
  });

  it('a config dir that was there with mode 0755 is made 0700 when the token is stored (and on logout)', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.oauth);
    const dir = join(root, 'xdg', 'a4h');
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chmodSync(dir, 0o755);
    const login = await runCli(['auth', 'login', url, '--oauth-client-id', AUTH_SECRETS.clientId, '--oauth-client-secret-env', 'S'], {
      env: env({ S: AUTH_SECRETS.clientSecret }),
    });
    expect(login.code, login.stderr).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    chmodSync(dir, 0o755);
    expect((await runCli(['auth', 'logout', url], { env: env() })).code).toBe(0);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('an expired stored token is not sent: a warning says to log in again', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.bearer);
    mkdirSync(join(root, 'xdg', 'a4h'), { recursive: true, mode: 0o700 });
    const entry = STORED;
    writeFileSync(tokensPath(), JSON.stringify({ [new URL(url).origin]: { ...entry, expiresAt: Date.now() - 1000 } }), { mode: 0o600 });
    const expired = await runCli(['send', url, 'artifacts'], { env: env() });
    expect(expired.code).not.toBe(0);
    expect(expired.stderr).toContain(`the token a4h auth login stored for ${new URL(url).origin} has expired: run a4h auth login again`);
    writeFileSync(tokensPath(), JSON.stringify({ [new URL(url).origin]: { ...entry, expiresAt: Date.now() + 60_000 } }), { mode: 0o600 });
    expect((await runCli(['send', url, 'artifacts'], { env: env() })).stdout).toContain(REPLY.artifacts);
  });

  it.skipIf(process.getuid?.() !== 0)(
    'a tokens file another user wrote (or may write) is not read: their token would send your messages under their account',
    async () => {
      const url = agents.v1.url(AUTH_MOUNTS.bearer);
      mkdirSync(join(root, 'xdg', 'a4h'), { recursive: true, mode: 0o700 });
      const entry = STORED;
      writeFileSync(tokensPath(), JSON.stringify({ [new URL(url).origin]: entry }), { mode: 0o600 });
      chownSync(tokensPath(), 65534, 65534);
      const theirs = await runCli(['send', url, 'artifacts'], { env: env() });
      expect(theirs.code).toBe(4); // the bearer agent refuses a message sent without their token
      expect(theirs.stderr).toContain(`${tokensPath()} is not read: it is owned by another user (uid 65534)`);
      chownSync(tokensPath(), 0, 0);
      chmodSync(tokensPath(), 0o622);
      const writable = await runCli(['send', url, 'artifacts'], { env: env() });
      expect(writable.code).toBe(4);
      expect(writable.stderr).toContain(`${tokensPath()} is not read: others can write it (mode 0622)`);
      chmodSync(tokensPath(), 0o600);
      expect((await runCli(['send', url, 'artifacts'], { env: env() })).stdout).toContain(REPLY.artifacts);
    },
  );

  it('a wrong secret: exit 4, one line naming the endpoint’s error, nothing stored; no secret: bad usage (2)', async () => {
    const url = agents.v1.url(AUTH_MOUNTS.oauth);
    const refused = await runCli(['auth', 'login', url, '--oauth-client-id', AUTH_SECRETS.clientId, '--oauth-client-secret-env', 'S'], {
      env: env({ S: 'not-the-secret' }),
    });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/refused the client credentials request \(HTTP 401/);
    expect(refused.stderr).not.toContain('not-the-secret');
    const bare = await runCli(['auth', 'login', url, '--oauth-client-id', AUTH_SECRETS.clientId], { env: env() });
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/client credentials need --oauth-client-secret-env VAR/);
  });
});

describe('a4h auth login --device (RFC 8628, oidc-provider)', { timeout: 90_000 }, () => {
  it('shows the page and the code, waits for the approval, stores the token; the agent accepts it', async () => {
    const url = oauthAgents.v1.url(OAUTH_MOUNTS.call);
    const args = ['auth', 'login', url, '--device', '--oauth-client-id', OAUTH_CLIENTS.cli.id, '--oauth-device-url', provider.deviceUrl];
    args.push('--oauth-token-url', provider.tokenUrl); // the provider is on another origin than the agent: named by the person
    const run = startCli([...args, '--oauth-scope', 'a2a.call'], { env: env(), timeoutMs: 60_000 });
    const prompt = await new Promise<RegExpExecArray>((resolve) => {
      const check = (): void => {
        const found = /open (\S+) and enter the code (\S+)/.exec(run.stderr());
        if (found) resolve(found);
        else setTimeout(check, 50);
      };
      check();
    });
    expect(prompt[1]).toBe(`${provider.issuer}/device`);
    await provider.decideDevice(prompt[2]!, true);
    const { code, stdout, stderr } = await run.result;
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^Flow: device_code$/m);
    const token = stored()[new URL(url).origin]!.accessToken;
    expect(stdout + stderr).not.toContain(token);
    expect(await provider.introspect(token)).toMatchObject({ scope: expect.stringContaining('a2a.call') });
    const turn = await runCli(['send', url, 'artifacts'], { env: env() });
    expect(turn.stdout, turn.stderr).toContain(REPLY.artifacts);
  });

  it("the card's device code flow on another origin: bad usage naming it, nothing asked; named by the person, a refused sign-in: exit 4, nothing stored", async () => {
    const url = oauthAgents.v1.url(OAUTH_MOUNTS.call);
    const tokens = provider.tokenRequests.length;
    const cardOnly = await runCli(['auth', 'login', url, '--device', '--oauth-client-id', OAUTH_CLIENTS.cli.id], { env: env() });
    expect(cardOnly.code).toBe(2);
    expect(cardOnly.stderr).toContain(
      `on another origin than the agent (${oauthAgents.v1.baseUrl}): nothing is sent there unless you name it`,
    );
    expect(provider.tokenRequests.length).toBe(tokens);
    const named = ['--oauth-device-url', provider.deviceUrl, '--oauth-token-url', provider.tokenUrl];
    const run = startCli(['auth', 'login', url, '--device', '--oauth-client-id', OAUTH_CLIENTS.cli.id, ...named], {
      env: env(),
      timeoutMs: 60_000,
    });
    const userCode = await new Promise<string>((resolve) => {
      const check = (): void => {
        const found = /enter the code (\S+)/.exec(run.stderr());
        if (found) resolve(found[1]!);
        else setTimeout(check, 50);
      };
      check();
    });
    await provider.decideDevice(userCode, false);
    const { code, stderr } = await run.result;
    expect(code).toBe(4);
    expect(stderr).toMatch(/the sign-in was refused \(access_denied\)/);
    expect(() => statSync(tokensPath())).toThrow();
  });
});
