import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AUTH_MOUNTS, AUTH_SECRETS, startAuthAgents, type AuthAgents } from '../../../../fixtures/agent-auth.js';
import { REPLY } from '../../../../fixtures/index.js';
import { isA2AError } from '../../../../src/errors.js';
import { agentFetch } from '../../../../src/sdk/wire/fetch/agent-fetch.js';
import { checkCredentials, type CredentialsOption } from '../../../../src/sdk/http/credentials/options.js';
import { planFor } from '../../../../src/sdk/http/credentials/plan.js';
import { TokenCache } from '../../../../src/sdk/http/credentials/oauth/token-cache.js';
import { BEARER, client, completed, failed, recordingLogger, requests, turn } from '../../credentials-kit.js';
import { bareCard, sendJson, startRawAgent } from '../../raw-agent.js';
import { useAgent } from '../../../agent-rig.js';

// Where credentials may go (the agent's own origin, a prefix's agents, no redirect elsewhere), the auth
// errors of a refusal, and the option's own checks.

let agents: AuthAgents;
useAgent(startAuthAgents, (a) => (agents = a));

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
    // Each turn's send, and the thread's first message's ListTasks: none carries the credentials.
    expect(calls.filter((r) => r.method === 'SendStreamingMessage')).toHaveLength(2);
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
        return sendJson(res, bareCard(base, 'redirecting'));
      }
      seen.push(req.headers['authorization']);
      res.writeHead(307, { location: `${elsewhere.url}rpc` }).end();
    });
    const a2a = client({ [new URL(redirecting.url).origin]: { bearer: AUTH_SECRETS.bearer } });
    try {
      const error = failed(await turn(a2a, redirecting.url, 'artifacts'));
      expect(error).toMatchObject({ kind: 'http', status: 307 });
      expect(error.message).toContain('not followed with credentials');
      // The thread's first message asks ListTasks first: refused the same way, then the send; each
      // once (the client follows a redirect itself, so its fetch gives it the 307 as it came), to this
      // origin only.
      expect(seen).toEqual([BEARER, BEARER]);
    } finally {
      await a2a.close();
      await redirecting.close();
      await elsewhere.close();
    }
  });
});

describe("the agent's fetch itself", () => {
  it('refuses a URL on another origin than its credentials: nothing reaches that origin, not even without them', async () => {
    const seen: (string | undefined)[] = [];
    const own = await startRawAgent((req, res) => {
      seen.push(req.headers['authorization']);
      sendJson(res, {});
    });
    const other = await startRawAgent((_req, res) => sendJson(res, {}));
    try {
      const [entry] = checkCredentials({ [new URL(own.url).origin]: { bearer: AUTH_SECRETS.bearer } });
      const fetch = agentFetch(globalThis.fetch, {
        plan: planFor(entry!, own.url, undefined, new TokenCache(globalThis.fetch)),
        schemes: [],
      });
      // Its own origin gets the credentials.
      await (await fetch(`${own.url}rpc`, { method: 'POST', body: '{}' })).text();
      expect(seen).toEqual([BEARER]);
      for (const input of [`${other.url}rpc`, new Request(`${other.url}rpc`, { method: 'POST', body: '{}' })]) {
        const error = await fetch(input, { method: 'POST', body: '{}' }).catch((e: unknown) => e);
        expect(error).toMatchObject({ kind: 'auth', retryable: false, auth: { sent: 'none' } });
        expect((error as Error).message).toBe(
          `a request for the agent at ${new URL(own.url).origin} was to go to ${new URL(other.url).origin}: refused, nothing was sent (its credentials go to their own origin only)`,
        );
      }
      expect(other.connections).toBe(0);
    } finally {
      await own.close();
      await other.close();
    }
  });
});

describe('a same-origin 307', () => {
  it('is followed with the credentials', async () => {
    const seen: [string, string | undefined][] = [];
    const moving = await startRawAgent((req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, bareCard(base, 'moving'));
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
      // ListTasks (the thread's first message), then the send: each redirected once, each with the credentials.
      expect(seen).toEqual([
        ['/rpc', BEARER],
        ['/rpc2', BEARER],
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
          return sendJson(
            res,
            bareCard(base, 'coded', {
              capabilities: { streaming: true },
              securitySchemes: { key: { apiKeySecurityScheme: { location: 'header', name: 'X-Key' } } },
            }),
          );
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
        const { createSdkPorts } = await import('../../../../src/sdk/ports.js');
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
    [
      'an apiKey header the client does not let a key replace',
      { 'https://h': { apiKey: { value: 'value-not-shown-6', in: 'header', name: 'Host' } } },
    ],
    [
      'an apiKey header where the bearer token goes',
      { 'https://h': { bearer: 'value-not-shown-7', apiKey: { value: 'value-not-shown-8', in: 'header', name: 'authorization' } } },
    ],
    [
      'an apiKey query name that would split the query',
      { 'https://h': { apiKey: { value: 'value-not-shown-9', in: 'query', name: 'a&b' } } },
    ],
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
