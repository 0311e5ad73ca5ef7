import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, MEMBERS_SKILL, startAuthAgents, type AuthAgents } from '../../../../fixtures/agent-auth.js';
import { REPLY } from '../../../../fixtures/index.js';
import { BEARER, client, completed, failed, requests, turn } from '../../credentials-kit.js';
import { eventually } from '../../../eventually.js';
import { FAST } from '../../harness.js';
import { useAgent } from '../../../agent-rig.js';

// Credentials per agent, by kind: a bearer token on every call, the extended card it unlocks, an API key
// where the card puts it, a function for tokens that expire. (Where they may go and the errors of a
// refusal: credentials-refusals.test.ts.)

let agents: AuthAgents;
useAgent(startAuthAgents, (a) => (agents = a));

describe('a bearer token', () => {
  it('v1.0: every call of a turn carries it (stream, resubscribe, the extended card), the public card fetch does not', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer } });
    const from = agents.v1.received.length;
    try {
      expect(completed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'))).toBe(REPLY.artifacts);
      expect(completed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.bearer), 'drop'))).toBe(REPLY.drop);
    } finally {
      await a2a.close();
    }
    const { card, calls } = requests(agents.v1, AUTH_MOUNTS.bearer, from);
    expect(card.length).toBeGreaterThan(0);
    for (const request of card) expect(request.headers['authorization']).toBeUndefined();
    // ListTasks: the thread's first message asks for a task left waiting, with the credentials too.
    expect(new Set(calls.map((r) => r.method))).toEqual(
      new Set(['GET /extendedAgentCard', 'ListTasks', 'SendStreamingMessage', 'SubscribeToTask']),
    );
    for (const request of calls) expect(request.headers['authorization']).toBe(BEARER);
  });

  it('v1.0: send, GetTask, CancelTask and the CancelTask of an abandoned turn carry it too', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer } });
    const agent = agents.v1.url(AUTH_MOUNTS.bearer);
    const from = agents.v1.received.length;
    // A turn left before the agent named its task: the stream is read on, then the task cancelled.
    const left = a2a.turn({ agent, handle: 'h', thread: 'abandoned', text: 'slow' }).subscribe();
    await eventually(() => requests(agents.v1, AUTH_MOUNTS.bearer, from).calls.some((r) => r.method === 'SendStreamingMessage'));
    left.unsubscribe();
    await a2a.close();
    const cancels = requests(agents.v1, AUTH_MOUNTS.bearer, from).calls.filter((r) => r.method === 'CancelTask');
    expect(cancels).toHaveLength(1);
    expect(cancels[0]!.headers['authorization']).toBe(BEARER);

    // The port's other calls, one by one.
    const { createSdkPorts } = await import('../../../../src/sdk/ports.js');
    const port = createSdkPorts({ credentials: { [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer } } })(agent);
    await firstValueFrom(port.card());
    const sent = await firstValueFrom(port.send({ text: 'artifacts' }));
    const taskId = sent.kind === 'task' ? sent.task.id : '';
    await firstValueFrom(port.getTask(taskId));
    await firstValueFrom(port.cancel(taskId)).catch(() => undefined); // a finished task is not cancelable: the request went anyway
    const calls = requests(agents.v1, AUTH_MOUNTS.bearer, from).calls;
    expect(calls.map((r) => r.method)).toEqual(expect.arrayContaining(['SendMessage', 'GetTask', 'CancelTask']));
    for (const request of calls) expect(request.headers['authorization']).toBe(BEARER);
  });

  it("v1.0 on the SDK's own stream reader: the same, and a 401 is an auth error there too", async () => {
    const { createSdkPorts } = await import('../../../../src/sdk/ports.js');
    const { runTurn } = await import('../../../../src/turn/turn.js');
    const agent = agents.v1.url(AUTH_MOUNTS.bearer);
    const from = agents.v1.received.length;
    const good = createSdkPorts({ reader: 'sdk', credentials: { [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer } } });
    const events = await lastValueFrom(runTurn(good(agent), { text: 'artifacts' }, FAST).pipe(toArray()));
    expect(completed(events)).toBe(REPLY.artifacts);
    for (const request of requests(agents.v1, AUTH_MOUNTS.bearer, from).calls) expect(request.headers['authorization']).toBe(BEARER);
    const bad = createSdkPorts({ reader: 'sdk', credentials: { [agents.v1.baseUrl]: { bearer: 'not-the-token-9f8e' } } });
    const error = await lastValueFrom(runTurn(bad(`${agents.v1.url(AUTH_MOUNTS.apiKey)}`), { text: 'artifacts' }, FAST)).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({
      kind: 'auth',
      status: 401,
      operation: 'stream',
      auth: { sent: 'a bearer token (Authorization header)' },
    });
  });

  it('v0.3: the turn and the authenticated extended card carry it', async () => {
    const a2a = client({ [agents.v03.baseUrl]: { bearer: AUTH_SECRETS.bearer } });
    const from = agents.v03.received.length;
    try {
      const card = await lastValueFrom(a2a.card(agents.v03.url('/')));
      expect(card).toMatchObject({ name: 'v03-bearer (extended)', extended: true, credentials: 'a bearer token (Authorization header)' });
      expect(card.skills?.map((s) => s.id)).toContain(MEMBERS_SKILL.id);
      expect(completed(await turn(a2a, agents.v03.url('/'), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    const { calls } = requests(agents.v03, '/', from);
    expect(calls.map((r) => r.method)).toEqual(['agent/getAuthenticatedExtendedCard', 'message/stream']);
    for (const request of calls) expect(request.headers['authorization']).toBe(BEARER);
  });
});

describe('the authenticated extended card', () => {
  it('fetched with the credentials, its interfaces and skills win', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer } });
    try {
      const card = await firstValueFrom(a2a.card(agents.v1.url(AUTH_MOUNTS.bearer)));
      // The public card lists HTTP+JSON only; the extended one JSON-RPC too, which the client prefers.
      expect(card).toMatchObject({ name: 'v1-bearer (extended)', transport: 'JSONRPC', extended: true });
      expect(card.skills?.map((s) => s.id)).toEqual(['fixture', MEMBERS_SKILL.id]);
      expect(card.securitySchemes).toEqual([{ name: 'bearerAuth', type: 'http', required: true, scheme: 'Bearer' }]);
    } finally {
      await a2a.close();
    }
  });

  it('not fetched without credentials: the public card, with its schemes', async () => {
    const a2a = client();
    const from = agents.v1.received.length;
    try {
      const card = await firstValueFrom(a2a.card(agents.v1.url(AUTH_MOUNTS.bearer)));
      expect(card).toMatchObject({ name: 'v1-bearer', transport: 'HTTP+JSON' });
      expect(card.extended).toBeUndefined();
      expect(card.credentials).toBeUndefined();
      expect(card.securitySchemes?.map((s) => s.name)).toEqual(['bearerAuth']);
    } finally {
      await a2a.close();
    }
    expect(requests(agents.v1, AUTH_MOUNTS.bearer, from).calls).toEqual([]);
  });

  it('refused for the credentials: the card is an auth error', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { bearer: 'not-the-token-5c1d' } });
    try {
      const error = await firstValueFrom(a2a.card(agents.v1.url(AUTH_MOUNTS.bearer))).catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'auth', status: 401, operation: 'card' });
    } finally {
      await a2a.close();
    }
  });
});

describe('an API key', () => {
  it('in the header the card names', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { apiKey: AUTH_SECRETS.apiKey } });
    const from = agents.v1.received.length;
    try {
      expect(completed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.apiKey), 'artifacts'))).toBe(REPLY.artifacts);
      const card = await firstValueFrom(a2a.card(agents.v1.url(AUTH_MOUNTS.apiKey)));
      expect(card.credentials).toBe('an API key (header X-API-Key)');
    } finally {
      await a2a.close();
    }
    const { calls } = requests(agents.v1, AUTH_MOUNTS.apiKey, from);
    expect(calls.map((r) => r.method)).toEqual(['ListTasks', 'SendStreamingMessage']);
    for (const call of calls) {
      expect(call.headers['x-api-key']).toBe(AUTH_SECRETS.apiKey);
      expect(call.headers['authorization']).toBeUndefined();
    }
  });

  it('in the query parameter the card names', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { apiKey: AUTH_SECRETS.apiKey } });
    const from = agents.v1.received.length;
    try {
      expect(completed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.apiKeyQuery), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
    }
    const { calls } = requests(agents.v1, AUTH_MOUNTS.apiKeyQuery, from);
    expect(calls.map((r) => r.method)).toEqual(['ListTasks', 'SendStreamingMessage']);
    for (const call of calls) expect(new URL(call.path, 'http://x').searchParams.get('api_key')).toBe(AUTH_SECRETS.apiKey);
  });

  it('with the card fetch too (card: true): placed as told there, where the card says after', async () => {
    const placed = client({ [agents.v1.baseUrl]: { apiKey: { value: AUTH_SECRETS.apiKey, in: 'header', name: 'X-API-Key' }, card: true } });
    const from = agents.v1.received.length;
    try {
      expect(completed(await turn(placed, agents.v1.url(AUTH_MOUNTS.apiKey), 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await placed.close();
    }
    const { card, calls } = requests(agents.v1, AUTH_MOUNTS.apiKey, from);
    for (const request of [...card, ...calls]) expect(request.headers['x-api-key']).toBe(AUTH_SECRETS.apiKey);

    // Without a place of its own, the key cannot go with the card fetch: nothing says where yet.
    const unplaced = client({ [agents.v1.baseUrl]: { apiKey: AUTH_SECRETS.apiKey, card: true } });
    try {
      const error = failed(await turn(unplaced, agents.v1.url(AUTH_MOUNTS.apiKeyQuery), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', operation: 'card' });
      expect(error.message).toContain('the card is not read yet');
    } finally {
      await unplaced.close();
    }
  });

  it('with nowhere to go (the card declares no apiKey scheme): an auth error before any call', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { apiKey: AUTH_SECRETS.apiKey } });
    const from = agents.v1.received.length;
    try {
      const error = failed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', retryable: false });
      expect(error.message).toContain('give apiKey.in and apiKey.name');
    } finally {
      await a2a.close();
    }
    expect(requests(agents.v1, AUTH_MOUNTS.bearer, from).calls).toEqual([]);
  });
});

describe('a refreshing function (OAuth client credentials)', () => {
  /**
   * A client-credentials token source: the token URL from the card, a new token when the last one
   * expired by `now` (the clock the token endpoint runs on).
   */
  function oauthSource(refresh: boolean, now: () => number) {
    let token: { value: string; expiresAt: number } | undefined;
    const seen: (string | undefined)[] = [];
    const headers = async (_agent: string, card: { securitySchemes?: { tokenUrl?: string }[] } | undefined) => {
      const tokenUrl = card?.securitySchemes?.find((s) => s.tokenUrl)?.tokenUrl;
      seen.push(tokenUrl);
      if (token === undefined || (refresh && token.expiresAt <= now())) {
        const body = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: AUTH_SECRETS.clientId,
          client_secret: AUTH_SECRETS.clientSecret,
        });
        const answer = (await (await fetch(tokenUrl!, { method: 'POST', body })).json()) as { access_token: string; expires_in: number };
        token = { value: answer.access_token, expiresAt: now() + answer.expires_in * 1000 };
      }
      return { Authorization: `Bearer ${token.value}` };
    };
    return { headers, seen };
  }

  it('a fresh token once the last one expired; without refreshing, the expired token is refused', async () => {
    // One clock for the token endpoint and the sources, moved on past a token's lifetime instead of waiting it out.
    let clockMs = 0;
    const now = (): number => clockMs;
    const short = await startAuthAgents({ tokenTtlMs: 1_000, now });
    try {
      const agent = short.v1.url(AUTH_MOUNTS.oauth);
      const source = oauthSource(true, now);
      const a2a = client({ [short.v1.baseUrl]: source.headers });
      expect(completed(await turn(a2a, agent, 'artifacts'))).toBe(REPLY.artifacts);
      clockMs += 1_200;
      expect(completed(await turn(a2a, agent, 'artifacts'))).toBe(REPLY.artifacts);
      await a2a.close();
      expect(short.issuer.issued).toHaveLength(2);
      expect(source.seen.every((url) => url === short.tokenUrl)).toBe(true);

      const stale = oauthSource(false, now);
      const b = client({ [short.v1.baseUrl]: stale.headers });
      expect(completed(await turn(b, agent, 'artifacts'))).toBe(REPLY.artifacts);
      clockMs += 1_200;
      const error = failed(await turn(b, agent, 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', status: 401 });
      expect(error.message).toContain('sent: headers Authorization from a function');
      expect(error.message).toContain('the card declares oauth (OAuth 2.0, required)');
      await b.close();
    } finally {
      await short.close();
    }
  });

  it('a function that throws fails the call with an auth error carrying its cause', async () => {
    const a2a = client({
      [agents.v1.baseUrl]: () => {
        throw new Error('the token endpoint is down');
      },
    });
    try {
      const error = failed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.oauth), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', retryable: false });
      expect(error.message).toContain('the credentials function for');
      expect((error.cause as Error).message).toBe('the token endpoint is down');
    } finally {
      await a2a.close();
    }
  });
});
