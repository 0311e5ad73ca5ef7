import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAUTH_MOUNTS, startOAuthAgents, type OAuthAgents } from '../../../../../fixtures/agent-oauth.js';
import { REPLY } from '../../../../../fixtures/index.js';
import { OAUTH_CLIENTS, startOAuthServer, type OAuthServer } from '../../../../../fixtures/oauth-provider.js';
import { createA2A } from '../../../../../src/index.js';
import { createSdkPorts } from '../../../../../src/sdk/ports.js';
import type { A2AError } from '../../../../../src/errors.js';
import type { CredentialsOption } from '../../../../../src/sdk/http/credentials/options.js';
import { client, completed, failed, turn } from '../../../credentials-kit.js';

// OAuth 2.0 client credentials against a real authorization server (oidc-provider on loopback) and real
// SDK agents that introspect every token at it; a second pair whose tokens live 2 s, for their expiry.

const { id, secret } = OAUTH_CLIENTS.gateway;
let server: OAuthServer;
let agents: OAuthAgents;
let short: { server: OAuthServer; agents: OAuthAgents };
beforeAll(async () => {
  server = await startOAuthServer({ ttlS: 60 });
  agents = await startOAuthAgents(server);
  const shortServer = await startOAuthServer({ ttlS: 2 });
  short = { server: shortServer, agents: await startOAuthAgents(shortServer) };
});
afterAll(async () => {
  await agents?.close();
  await server?.close();
  await short?.agents.close();
  await short?.server.close();
});

// The identity provider is on another origin than the agents: the caller names it as trusted, and lets the card
// choose the scopes (test/sdk/http/credentials/oauth/token-destination.test.ts: what happens when it does not).
const trusting = (idp: OAuthServer) => ({ trustedTokenOrigins: [new URL(idp.tokenUrl).origin], cardScopes: true });
const oauth = (origin: string, more: Partial<Parameters<typeof checkOf>[0]> = {}, idp: OAuthServer = server): CredentialsOption => ({
  [origin]: { oauth: { clientId: id, clientSecret: secret, ...trusting(idp), ...more } },
});
const checkOf = (o: { clientId: string; clientSecret: string | (() => string); scopes?: string[]; tokenUrl?: string }) => o;
const basic = `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const tokensSince = (from: number) => server.tokenRequests.slice(from);
const seenSince = (from: number, mount: string) => agents.seen.slice(from).filter((s) => s.mount === mount);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('a token from the card’s client-credentials flow', () => {
  it('v1.0: asked for with HTTP Basic and the scope the card requires, sent on every call, reused by the next turn', async () => {
    const a2a = client(oauth(agents.v1.baseUrl));
    const tokens = server.tokenRequests.length;
    const seen = agents.seen.length;
    try {
      expect(completed(await turn(a2a, agents.v1.url(OAUTH_MOUNTS.call), 'artifacts'))).toBe(REPLY.artifacts);
      expect(completed(await turn(a2a, agents.v1.url(OAUTH_MOUNTS.call), 'status'))).toBe(REPLY.status);
    } finally {
      await a2a.close();
    }
    const asked = tokensSince(tokens);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({ authorization: basic, status: 200 });
    expect(new URLSearchParams(asked[0]!.body)).toEqual(new URLSearchParams({ grant_type: 'client_credentials', scope: 'a2a.call' }));
    const judged = seenSince(seen, OAUTH_MOUNTS.call);
    expect(judged.length).toBe(4); // ListTasks and a stream, twice
    expect(new Set(judged.map((s) => s.token)).size).toBe(1);
    expect(judged.every((s) => s.accepted)).toBe(true);
  });

  it('v0.3 (the OpenAPI-style scheme), with the client secret from a function', async () => {
    let asked = 0;
    const clientSecret = () => {
      asked++;
      return secret;
    };
    const a2a = client({ [agents.v03.baseUrl]: { oauth: { clientId: id, clientSecret, ...trusting(server) } } });
    const tokens = server.tokenRequests.length;
    try {
      expect(completed(await turn(a2a, agents.v03.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    expect(asked).toBe(1);
    expect(new URLSearchParams(tokensSince(tokens)[0]!.body).get('scope')).toBe('a2a.call');
  });

  it('concurrent turns share one token request', async () => {
    const a2a = client(oauth(agents.v1.baseUrl));
    const tokens = server.tokenRequests.length;
    try {
      const results = await Promise.all(Array.from({ length: 6 }, () => turn(a2a, agents.v1.url(OAUTH_MOUNTS.call), 'artifacts')));
      for (const result of results) expect(completed(result)).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    expect(tokensSince(tokens)).toHaveLength(1);
  });

  it('a token is asked for again shortly before it expires (2 s tokens: kept 1.5 s)', async () => {
    const a2a = client(oauth(short.agents.v1.baseUrl, {}, short.server));
    const agent = short.agents.v1.url(OAUTH_MOUNTS.call);
    try {
      completed(await turn(a2a, agent, 'artifacts'));
      await sleep(1_600);
      completed(await turn(a2a, agent, 'artifacts'));
    } finally {
      await a2a.close();
    }
    expect(short.server.tokenRequests.length).toBeGreaterThanOrEqual(2); // 3 if the first turn took over 1.5 s
    expect(short.agents.seen.every((s) => s.accepted)).toBe(true); // the old token was never sent after its time
    expect(new Set(short.agents.seen.map((s) => s.token)).size).toBe(2);
  });
});

describe('a call refused with 401', () => {
  it('is made once more with a fresh token: send, stream, GetTask, CancelTask, ListTasks and resubscribe, each after a revocation', async () => {
    const port = createSdkPorts({ credentials: oauth(agents.v1.baseUrl) })(agents.v1.url(OAUTH_MOUNTS.call));
    await firstValueFrom(port.card());
    const sent = await firstValueFrom(port.send({ text: 'artifacts' }));
    const taskId = sent.kind === 'task' ? sent.task.id : '';
    const contextId = sent.kind === 'task' ? (sent.task.contextId ?? '') : '';
    const calls: [string, () => Promise<unknown>][] = [
      ['send', () => firstValueFrom(port.send({ text: 'artifacts' }))],
      ['stream', () => lastValueFrom(port.stream({ text: 'artifacts' }).pipe(toArray()))],
      ['get-task', () => firstValueFrom(port.getTask(taskId))],
      ['cancel', () => firstValueFrom(port.cancel(taskId))],
      ['list-tasks', () => firstValueFrom(port.listTasks!(contextId))],
      ['resubscribe', () => lastValueFrom(port.resubscribe(taskId).pipe(toArray()))],
    ];
    for (const [name, call] of calls) {
      const current = agents.seen.filter((s) => s.mount === OAUTH_MOUNTS.call && s.accepted).at(-1)!.token!;
      await server.revoke(current);
      const tokens = server.tokenRequests.length;
      const seen = agents.seen.length;
      const outcome = await call().catch((error: unknown) => error);
      // A finished task is neither cancelled nor subscribed to: the agent says so, once it let the call in.
      if (outcome instanceof Error) expect([name, outcome]).toMatchObject([name, { kind: expect.not.stringMatching(/^auth$/) }]);
      expect([name, tokensSince(tokens).length]).toEqual([name, 1]);
      const judged = seenSince(seen, OAUTH_MOUNTS.call);
      expect([name, judged.map((s) => [s.token === current, s.accepted])]).toEqual([
        name,
        [
          [true, false],
          [false, true],
        ],
      ]);
    }
  });

  it("concurrent calls refused with one revoked token cause one token request; the request goes through the client's fetch", async () => {
    const through: string[] = [];
    const fetchSeen: typeof fetch = (input, init) => {
      through.push(`${init?.method ?? 'GET'} ${String(input)}`);
      return fetch(input, init);
    };
    const port = createSdkPorts({ fetch: fetchSeen, credentials: oauth(agents.v1.baseUrl) })(agents.v1.url(OAUTH_MOUNTS.call));
    await firstValueFrom(port.send({ text: 'artifacts' }));
    expect(through).toContain(`POST ${server.tokenUrl}`);
    await server.revoke(agents.seen.filter((s) => s.mount === OAUTH_MOUNTS.call && s.accepted).at(-1)!.token!);
    const tokens = server.tokenRequests.length;
    const results = await Promise.all(Array.from({ length: 4 }, () => firstValueFrom(port.send({ text: 'artifacts' }))));
    expect(results.map((r) => r.kind)).toEqual(['task', 'task', 'task', 'task']);
    expect(tokensSince(tokens)).toHaveLength(1);
  });

  it('a second 401 with the fresh token is the auth error, after two token requests (a token without the scope the agent wants)', async () => {
    const port = createSdkPorts({ credentials: oauth(agents.v1.baseUrl, { scopes: ['a2a.call'] }) })(agents.v1.url(OAUTH_MOUNTS.admin));
    await firstValueFrom(port.card());
    const tokens = server.tokenRequests.length;
    const seen = agents.seen.length;
    const error = (await firstValueFrom(port.send({ text: 'artifacts' })).catch((e: unknown) => e)) as A2AError;
    expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false, operation: 'send' });
    expect(error.message).toContain('sent: an OAuth 2.0 access token (client credentials, Authorization header)');
    expect(tokensSince(tokens)).toHaveLength(2);
    const judged = seenSince(seen, OAUTH_MOUNTS.admin);
    expect(judged.map((s) => s.accepted)).toEqual([false, false]);
    expect(judged[0]!.token).not.toBe(judged[1]!.token);
    for (const s of judged) expect(JSON.stringify(error) + error.message + String(error.cause)).not.toContain(s.token!);
  });
});

describe('the token endpoint refusing the client', () => {
  it('fails the turn with an auth error naming its error code only; nothing reaches the agent', async () => {
    const wrong = 'oauth-wrong-secret-0a9b8c7d';
    const a2a = client({ [agents.v1.baseUrl]: { oauth: { clientId: id, clientSecret: wrong, ...trusting(server) } } });
    const seen = agents.seen.length;
    let error;
    try {
      error = failed(await turn(a2a, agents.v1.url(OAUTH_MOUNTS.call), 'artifacts'));
    } finally {
      await a2a.close();
    }
    expect(error).toMatchObject({ kind: 'auth', retryable: false });
    expect(error.message).toContain(
      `the token endpoint ${server.tokenUrl} refused the client credentials request (HTTP 401, error "invalid_client")`,
    );
    expect(JSON.stringify(error) + error.message).not.toContain(wrong);
    expect(seenSince(seen, OAUTH_MOUNTS.call)).toEqual([]);
  });
});

describe('the card fetch with a token (card: true)', () => {
  it('needs oauth.tokenUrl: without it, an auth error before anything is sent; with it, the card fetch carries a token', async () => {
    const agent = agents.v1.url(OAUTH_MOUNTS.call);
    const tokens = server.tokenRequests.length;
    const blind = client({ [agents.v1.baseUrl]: { oauth: { clientId: id, clientSecret: secret, ...trusting(server) }, card: true } });
    let error;
    try {
      error = failed(await turn(blind, agent, 'artifacts'));
    } finally {
      await blind.close();
    }
    expect(error).toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('the card is not read yet, so it cannot name the token URL'),
    });
    expect(tokensSince(tokens)).toEqual([]);
    const from = agents.v1.received.length;
    const pinned = client({
      [agents.v1.baseUrl]: { oauth: { clientId: id, clientSecret: secret, tokenUrl: server.tokenUrl, cardScopes: true }, card: true },
    });
    try {
      expect(completed(await turn(pinned, agent, 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await pinned.close();
    }
    const cardFetch = agents.v1.received.slice(from).find((r) => r.method.endsWith('agent-card.json'));
    expect(cardFetch?.headers['authorization']).toMatch(/^Bearer /);
  });
});

describe('the option', () => {
  it('is checked by createA2A: a config error naming the field, never a value', () => {
    const bad: [Record<string, unknown>, RegExp][] = [
      [{ oauth: { clientId: id, clientSecret: secret }, bearer: 'b' }, /oauth sends its token in Authorization/],
      [{ oauth: { clientId: id, clientSecret: secret, tokenUrl: 'http://idp.example/token' } }, /oauth.tokenUrl must be https/],
      [{ oauth: { clientId: '', clientSecret: secret } }, /oauth.clientId must be/],
      [{ oauth: { clientId: id, clientSecret: 42 } }, /oauth.clientSecret must be/],
      [{ oauth: { clientId: id, clientSecret: secret, scopes: ['a b'] } }, /oauth.scopes must be/],
    ];
    for (const [entry, message] of bad) {
      let error: unknown;
      try {
        createA2A({ credentials: { 'https://agent.example': entry as never } });
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ kind: 'config', message: expect.stringMatching(message) });
      expect(String((error as Error).message)).not.toContain(secret);
    }
  });
});
