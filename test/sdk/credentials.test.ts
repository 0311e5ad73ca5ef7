import { firstValueFrom, lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, MEMBERS_SKILL, startAuthAgents, type AuthAgents } from '../../fixtures/agent-auth.js';
import { REPLY, type FixtureAgent, type ReceivedRequest } from '../../fixtures/index.js';
import { A2AError, isA2AError } from '../../src/errors.js';
import type { Logger } from '../../src/logger.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import type { CredentialsOption } from '../../src/sdk/credentials/options.js';
import { FAST, endOf, eventually } from './harness.js';
import { sendJson, startRawAgent } from './raw-agent.js';

const SECRET = 'credentials test identity secret 0123456789';

let agents: AuthAgents;
beforeAll(async () => {
  agents = await startAuthAgents();
});
afterAll(async () => {
  await agents.close();
});

/** A logger that keeps every line. */
function recordingLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  const line = (level: string) => (fields: Record<string, unknown>, message: string) =>
    lines.push(`${level} ${message} ${JSON.stringify(fields)}`);
  return { lines, debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

function client(credentials?: CredentialsOption, logger?: Logger) {
  return createA2A({ identitySecret: SECRET, policy: FAST.policy, ...(credentials ? { credentials } : {}), ...(logger ? { logger } : {}) });
}

let threads = 0;
/** One turn's events, or its error. */
async function turn(a2a: ReturnType<typeof client>, agent: string, text: string): Promise<TurnEvent[] | A2AError> {
  return lastValueFrom(a2a.turn({ agent, handle: 'h', thread: `t${threads++}`, text }).pipe(toArray())).catch((error: A2AError) => error);
}

function completed(result: TurnEvent[] | A2AError): string {
  if (result instanceof Error) throw result;
  const end = endOf(result);
  expect(end.outcome).toBe('completed');
  return end.text;
}

function failed(result: TurnEvent[] | A2AError): A2AError {
  if (!(result instanceof A2AError)) throw new Error(`expected an error, the turn ended ${JSON.stringify(result.at(-1))}`);
  return result;
}

/** The requests of a mount since `from`, split into the card fetches and the protocol calls. */
function requests(fixture: FixtureAgent, mount: string, from = 0): { card: ReceivedRequest[]; calls: ReceivedRequest[] } {
  const mine = fixture.received.slice(from).filter((r) => r.mount === mount);
  return {
    card: mine.filter((r) => r.method.endsWith('agent-card.json')),
    calls: mine.filter((r) => !r.method.endsWith('agent-card.json')),
  };
}

const BEARER = `Bearer ${AUTH_SECRETS.bearer}`;

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
    expect(new Set(calls.map((r) => r.method))).toEqual(new Set(['GET /extendedAgentCard', 'SendStreamingMessage', 'SubscribeToTask']));
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
    const { createSdkPorts } = await import('../../src/sdk/ports.js');
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
    const { createSdkPorts } = await import('../../src/sdk/ports.js');
    const { runTurn } = await import('../../src/turn/turn.js');
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
    expect(calls.map((r) => r.method)).toEqual(['SendStreamingMessage']);
    expect(calls[0]!.headers['x-api-key']).toBe(AUTH_SECRETS.apiKey);
    expect(calls[0]!.headers['authorization']).toBeUndefined();
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
    expect(calls).toHaveLength(1);
    expect(new URL(calls[0]!.path, 'http://x').searchParams.get('api_key')).toBe(AUTH_SECRETS.apiKey);
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
  /** A client-credentials token source: the token URL from the card, a new token when the last one expired. */
  function oauthSource(refresh: boolean) {
    let token: { value: string; expiresAt: number } | undefined;
    const seen: (string | undefined)[] = [];
    const headers = async (_agent: string, card: { securitySchemes?: { tokenUrl?: string }[] } | undefined) => {
      const tokenUrl = card?.securitySchemes?.find((s) => s.tokenUrl)?.tokenUrl;
      seen.push(tokenUrl);
      if (token === undefined || (refresh && token.expiresAt <= Date.now())) {
        const body = new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: AUTH_SECRETS.clientId,
          client_secret: AUTH_SECRETS.clientSecret,
        });
        const answer = (await (await fetch(tokenUrl!, { method: 'POST', body })).json()) as { access_token: string; expires_in: number };
        token = { value: answer.access_token, expiresAt: Date.now() + answer.expires_in * 1000 };
      }
      return { Authorization: `Bearer ${token.value}` };
    };
    return { headers, seen };
  }

  it('a fresh token once the last one expired; without refreshing, the expired token is refused', async () => {
    const short = await startAuthAgents({ tokenTtlMs: 1_000 });
    try {
      const agent = short.v1.url(AUTH_MOUNTS.oauth);
      const source = oauthSource(true);
      const a2a = client({ [short.v1.baseUrl]: source.headers });
      expect(completed(await turn(a2a, agent, 'artifacts'))).toBe(REPLY.artifacts);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      expect(completed(await turn(a2a, agent, 'artifacts'))).toBe(REPLY.artifacts);
      await a2a.close();
      expect(short.issuer.issued).toHaveLength(2);
      expect(source.seen.every((url) => url === short.tokenUrl)).toBe(true);

      const stale = oauthSource(false);
      const b = client({ [short.v1.baseUrl]: stale.headers });
      expect(completed(await turn(b, agent, 'artifacts'))).toBe(REPLY.artifacts);
      await new Promise((resolve) => setTimeout(resolve, 1_200));
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

describe('only to the agent’s own origin', () => {
  /** An agent whose card (on its own origin) points its interface at the bearer agent, on another origin. */
  async function pointingAgent() {
    const target = `${agents.v1.url(AUTH_MOUNTS.bearer)}a2a/jsonrpc`;
    return startRawAgent((_req, res) =>
      sendJson(res, {
        name: 'elsewhere',
        version: '1',
        capabilities: { streaming: true },
        supportedInterfaces: [{ url: target, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      }),
    );
  }

  it('an interface on another origin gets none (logged once, without values)', async () => {
    const card = await pointingAgent();
    const logger = recordingLogger();
    const a2a = client({ [new URL(card.url).origin]: { bearer: AUTH_SECRETS.bearer } }, logger);
    const from = agents.v1.received.length;
    try {
      for (let n = 0; n < 2; n++) {
        const error = failed(await turn(a2a, card.url, 'artifacts'));
        expect(error).toMatchObject({ kind: 'auth', status: 401, auth: { sent: 'none' } });
      }
    } finally {
      await a2a.close();
      await card.close();
    }
    const calls = requests(agents.v1, AUTH_MOUNTS.bearer, from).calls;
    expect(calls).toHaveLength(2);
    for (const request of calls) expect(request.headers['authorization']).toBeUndefined();
    const notes = logger.lines.filter((l) => l.includes('another origin'));
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(new URL(agents.v1.baseUrl).origin);
    expect(logger.lines.join('\n')).not.toContain(AUTH_SECRETS.bearer);
  });

  it('unless that origin is configured too', async () => {
    const card = await pointingAgent();
    const a2a = client({
      [new URL(card.url).origin]: { bearer: 'the card origin token 6a7b' },
      [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.bearer },
    });
    try {
      expect(completed(await turn(a2a, card.url, 'artifacts'))).toBe(REPLY.artifacts);
    } finally {
      await a2a.close();
      await card.close();
    }
  });

  it('a URL prefix applies to the agents below it only', async () => {
    const a2a = client({ [agents.v1.url(AUTH_MOUNTS.apiKey)]: { apiKey: AUTH_SECRETS.apiKey } });
    try {
      expect(completed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.apiKey), 'artifacts'))).toBe(REPLY.artifacts);
      const error = failed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.bearer), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', auth: { sent: 'none' } });
    } finally {
      await a2a.close();
    }
  });

  it('a redirect to another origin is not followed with credentials', async () => {
    const elsewhere = await startRawAgent((_req, res) => sendJson(res, { jsonrpc: '2.0', id: 1, result: {} }));
    const seen: (string | undefined)[] = [];
    const redirecting = await startRawAgent((req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, {
          name: 'redirecting',
          version: '1',
          capabilities: { streaming: false },
          supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          skills: [],
        });
      }
      seen.push(req.headers['authorization']);
      res.writeHead(307, { location: `${elsewhere.url}rpc` }).end();
    });
    const a2a = client({ [new URL(redirecting.url).origin]: { bearer: AUTH_SECRETS.bearer } });
    try {
      const error = failed(await turn(a2a, redirecting.url, 'artifacts'));
      expect(error).toMatchObject({ kind: 'http', status: 307 });
      expect(error.message).toContain('not followed with credentials');
      expect(seen).toEqual([BEARER]);
    } finally {
      await a2a.close();
      await redirecting.close();
      await elsewhere.close();
    }
  });
});

describe('a same-origin 307', () => {
  it('is followed with the credentials', async () => {
    const seen: [string, string | undefined][] = [];
    const moving = await startRawAgent((req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, {
          name: 'moving',
          version: '1',
          capabilities: { streaming: false },
          supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
          skills: [],
        });
      }
      seen.push([req.url ?? '', req.headers['authorization']]);
      if (req.url === '/rpc') return void res.writeHead(307, { location: `${base}rpc2` }).end();
      const task = {
        id: 'T',
        contextId: 'C',
        status: { state: 'TASK_STATE_COMPLETED' },
        artifacts: [{ artifactId: 'A', parts: [{ text: 'moved' }] }],
      };
      sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { task } });
    });
    const a2a = client({ [new URL(moving.url).origin]: { bearer: AUTH_SECRETS.bearer } });
    try {
      expect(completed(await turn(a2a, moving.url, 'hi'))).toBe('moved');
      expect(seen).toEqual([
        ['/rpc', BEARER],
        ['/rpc2', BEARER],
      ]);
    } finally {
      await a2a.close();
      await moving.close();
    }
  });
});

describe('refusals are auth errors', () => {
  const challenge = 'Bearer realm="fixture", error="invalid_token"';

  it('401 without credentials: not retryable, naming the scheme, what was sent and the challenge', async () => {
    const a2a = client();
    try {
      for (const agent of [agents.v1.url(AUTH_MOUNTS.bearer), agents.v03.url('/')]) {
        const error = failed(await turn(a2a, agent, 'artifacts'));
        expect(error).toMatchObject({ kind: 'auth', status: 401, retryable: false, auth: { sent: 'none', challenge } });
        expect(error.auth?.schemes?.[0]).toMatch(/^bearerAuth \(HTTP bearer, required\)$/i);
        expect(error.message).toMatch(
          /the agent refused the credentials \(HTTP 401, WWW-Authenticate: Bearer realm="fixture".*\); the card declares bearerAuth/,
        );
      }
    } finally {
      await a2a.close();
    }
  });

  it('401 with a wrong token says a bearer token was sent, never which', async () => {
    const wrong = 'wrong-token-3e4f5a6b7c8d';
    const a2a = client({ [agents.v03.baseUrl]: { bearer: wrong } });
    try {
      const error = failed(await turn(a2a, agents.v03.url('/'), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', status: 401, auth: { sent: 'a bearer token (Authorization header)' } });
      expect(JSON.stringify({ ...error, message: error.message })).not.toContain(wrong);
    } finally {
      await a2a.close();
    }
  });

  it('403 for a token without access', async () => {
    const a2a = client({ [agents.v1.baseUrl]: { bearer: AUTH_SECRETS.forbidden } });
    try {
      const error = failed(await turn(a2a, agents.v1.url(AUTH_MOUNTS.apiKey), 'artifacts'));
      expect(error).toMatchObject({ kind: 'auth', status: 401 }); // the API key agent wants a key, not a token
      const denied = await firstValueFrom(a2a.card(agents.v1.url(AUTH_MOUNTS.bearer))).catch((e: unknown) => e);
      expect(denied).toMatchObject({ kind: 'auth', status: 403, retryable: false });
      expect((denied as Error).message).toContain('the agent denied access with the credentials (HTTP 403)');
    } finally {
      await a2a.close();
    }
  });

  for (const code of [-31401, -31403]) {
    it(`the JSON-RPC error ${code} (a2a-go) is an auth error too, on a stream and a blocking send`, async () => {
      const agent = await startRawAgent((_req, res, { base, rpc }) => {
        if (rpc === undefined) {
          return sendJson(res, {
            name: 'coded',
            version: '1',
            capabilities: { streaming: true },
            supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
            securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } } },
            skills: [],
          });
        }
        sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code, message: 'unauthenticated' } });
      });
      const a2a = client({ [new URL(agent.url).origin]: { apiKey: 'coded-key-11223344' } });
      try {
        const error = failed(await turn(a2a, agent.url, 'artifacts'));
        expect(error).toMatchObject({
          kind: 'auth',
          code,
          retryable: false,
          auth: { sent: 'an API key (header X-Key)', schemes: ['key (API key in header X-Key)'] },
        });
        const { createSdkPorts } = await import('../../src/sdk/ports.js');
        const port = createSdkPorts({ credentials: { [new URL(agent.url).origin]: { apiKey: 'coded-key-11223344' } } })(agent.url);
        const sendError = await firstValueFrom(port.send({ text: 'hi' })).catch((e: unknown) => e);
        expect(sendError).toMatchObject({ kind: 'auth', code });
        expect(isA2AError(sendError, 'auth') && sendError.message).toContain('sent: an API key (header X-Key)');
      } finally {
        await a2a.close();
        await agent.close();
      }
    });
  }
});

describe('the credentials option is checked', () => {
  const cases: [string, CredentialsOption][] = [
    ['a key that is no URL', { 'not a url': { bearer: 'value-not-shown-1' } }],
    ['a key with a query', { 'https://h/?x=1': { bearer: 'value-not-shown-2' } }],
    ['a bearer with a line break', { 'https://h': { bearer: 'value-not-shown-3\r\nX: y' } }],
    ['a header name that is no token', { 'https://h': { headers: { 'bad name': 'value-not-shown-4' } } }],
    ['nothing to send', { 'https://h': {} }],
    ['an apiKey place that does not exist', { 'https://h': { apiKey: { value: 'value-not-shown-5', in: 'body' as 'header' } } }],
  ];
  for (const [name, credentials] of cases) {
    it(`${name}: a config error naming the key, never the value`, () => {
      let thrown: unknown;
      try {
        client(credentials);
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toMatchObject({ kind: 'config', operation: 'options' });
      expect((thrown as Error).message).toContain('invalid credentials for');
      expect((thrown as Error).message).not.toContain('value-not-shown');
    });
  }
});
