import type { IncomingHttpHeaders } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { apiKeyNameProblem } from '../../../../src/sdk/http/credentials/names.js';
import type { AgentCredentials } from '../../../../src/sdk/http/credentials/options.js';
import { client, completed, failed, turn } from '../../credentials-kit.js';
import { sendJson, startRawAgent, type RawAgent } from '../../raw-agent.js';

// A hostile card chooses where an API key goes: the name of its apiKey scheme is checked where the
// credential plan is made, before any request carries the key. The agents below record every request.

const KEY = 'names-test-api-key-5d6e7f8091';

/** What the agent received: each request's method and URL, its headers, the JSON-RPC method of a POST. */
interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rpc?: string;
}

/** A v1.0 (or v0.3) agent whose card declares one required apiKey scheme `scheme` at `location`, named `name`. */
async function agentDeclaring(location: string, name: string, shape: '1.0' | '0.3' = '1.0'): Promise<RawAgent & { seen: Seen[] }> {
  const seen: Seen[] = [];
  const agent = await startRawAgent((req, res, { base, rpc }) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, ...(rpc ? { rpc: rpc.method } : {}) });
    if (rpc === undefined) {
      const card =
        shape === '1.0'
          ? {
              name: 'names',
              version: '1',
              capabilities: { streaming: false },
              supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
              securitySchemes: { keyScheme: { apiKeySecurityScheme: { location, name } } },
              securityRequirements: [{ schemes: { keyScheme: { list: [] } } }],
              defaultInputModes: ['text/plain'],
              defaultOutputModes: ['text/plain'],
              skills: [],
            }
          : {
              name: 'names',
              version: '1',
              protocolVersion: '0.3.0',
              url: `${base}rpc`,
              preferredTransport: 'JSONRPC',
              description: 'names',
              capabilities: { streaming: false },
              securitySchemes: { keyScheme: { type: 'apiKey', in: location, name } },
              security: [{ keyScheme: [] }],
              defaultInputModes: ['text/plain'],
              defaultOutputModes: ['text/plain'],
              skills: [],
            };
      return sendJson(res, card);
    }
    if (rpc.method === 'ListTasks' || rpc.method === 'tasks/list')
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { tasks: [] } });
    const task = {
      id: 'T',
      contextId: 'C',
      status: { state: shape === '1.0' ? 'TASK_STATE_COMPLETED' : 'completed' },
      artifacts: [{ artifactId: 'A', parts: shape === '1.0' ? [{ text: 'keyed' }] : [{ kind: 'text', text: 'keyed' }] }],
      ...(shape === '0.3' ? { kind: 'task' } : {}),
    };
    sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: shape === '1.0' ? { task } : task });
  });
  return Object.assign(agent, { seen });
}

const agents: RawAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

/** One turn to an agent declaring `name` at `location`, with `credentials` for its origin: the turn's result and what the agent saw. */
async function attempt(location: string, name: string, credentials: AgentCredentials = { apiKey: KEY }, shape: '1.0' | '0.3' = '1.0') {
  const agent = await agentDeclaring(location, name, shape);
  agents.push(agent);
  const a2a = client({ [new URL(agent.url).origin]: credentials });
  try {
    return { result: await turn(a2a, agent.url, 'hi'), seen: agent.seen, url: agent.url };
  } finally {
    await a2a.close();
  }
}

/** Every header value the agent received, as one text (to search for the key). */
const everything = (seen: Seen[]): string => JSON.stringify(seen);

describe('a hostile card cannot place an API key where it does harm', () => {
  const refused: [string, string, string][] = [
    ['cookie', 'sid; admin=1', 'is no cookie name'],
    ['cookie', 'sid=x', 'is no cookie name'],
    ['cookie', 'sid\r\nX-Injected: 1', 'is no cookie name'],
    ['header', 'X-Key\r\nX-Injected: 1', 'is no header name'],
    ['header', 'X Key', 'is no header name'],
    ['header', 'Host', 'does not let an API key replace'],
    ['header', 'content-length', 'does not let an API key replace'],
    ['header', 'Transfer-Encoding', 'does not let an API key replace'],
    ['header', 'Connection', 'does not let an API key replace'],
    ['header', 'Cookie', 'does not let an API key replace'],
    ['header', 'Proxy-Authorization', 'does not let an API key replace'],
    ['header', 'A2A-Version', 'does not let an API key replace'],
    ['query', 'api_key&admin=1', 'is no query parameter name'],
    ['query', 'k#fragment', 'is no query parameter name'],
    ['query', 'k\u0000', 'is no query parameter name'],
  ];
  for (const [location, name, why] of refused) {
    it(`${location} ${JSON.stringify(name)}: a card error naming the scheme, and nothing but the card fetch reaches the agent`, async () => {
      const { result, seen } = await attempt(location, name);
      const error = failed(result);
      expect(error).toMatchObject({ kind: 'card', operation: 'card', retryable: false });
      expect(error.message).toContain(`the agent card's apiKey scheme "keyScheme" puts the API key in the`);
      expect(error.message).toContain(why);
      expect(error.message).not.toContain(KEY);
      expect(error.message).not.toMatch(/[\r\n\0]/);
      // The card fetch only: no call, and no header of any request carries the key.
      expect(seen.map((r) => r.method)).toEqual(['GET']);
      expect(everything(seen)).not.toContain(KEY);
      expect(seen[0]!.headers['cookie']).toBeUndefined();
    });
  }

  it('a v0.3 card is read the same way', async () => {
    const { result, seen } = await attempt('cookie', 'sid; admin=1', { apiKey: KEY }, '0.3');
    expect(failed(result)).toMatchObject({ kind: 'card', message: expect.stringContaining('is no cookie name') });
    expect(seen.map((r) => r.method)).toEqual(['GET']);
  });

  it('Authorization is where a bearer token of the same credentials goes: refused, neither is sent', async () => {
    const { result, seen } = await attempt('header', 'Authorization', { apiKey: KEY, bearer: 'names-test-bearer-0a1b2c' });
    const error = failed(result);
    expect(error).toMatchObject({ kind: 'card' });
    expect(error.message).toContain('is where these credentials send their bearer token');
    expect(seen.map((r) => r.method)).toEqual(['GET']);
  });

  it("a header the credentials' own headers set too: refused, neither replaces the other", async () => {
    const { result, seen } = await attempt('header', 'x-tenant-key', { apiKey: KEY, headers: { 'X-Tenant-Key': 'names-test-tenant' } });
    expect(failed(result).message).toContain("would clash with the X-Tenant-Key header these credentials' headers set");
    expect(seen.map((r) => r.method)).toEqual(['GET']);
  });
});

describe('sane names still carry the key (what the agent received)', () => {
  it('a cookie: exactly one, the key URL-encoded', async () => {
    const { result, seen } = await attempt('cookie', 'sid');
    expect(completed(result)).toBe('keyed');
    const calls = seen.filter((r) => r.method === 'POST');
    expect(calls.map((r) => r.rpc)).toEqual(['ListTasks', 'SendMessage']);
    for (const call of calls) expect(call.headers['cookie']).toBe(`sid=${KEY}`);
  });

  it('a header, Authorization included when no bearer token goes there', async () => {
    for (const name of ['X-Api-Key', 'Authorization']) {
      const { result, seen } = await attempt('header', name);
      expect(completed(result)).toBe('keyed');
      for (const call of seen.filter((r) => r.method === 'POST')) expect(call.headers[name.toLowerCase()]).toBe(KEY);
    }
  });

  it('a query parameter, encoded', async () => {
    const { result, seen } = await attempt('query', 'api.key[0]');
    expect(completed(result)).toBe('keyed');
    for (const call of seen.filter((r) => r.method === 'POST')) {
      expect(new URL(call.url, 'http://x').searchParams.get('api.key[0]')).toBe(KEY);
    }
  });
});

describe('the rules', () => {
  it('header names: tokens, not framing, not forbidden to browsers, not the client’s own', () => {
    for (const name of ['X-API-Key', 'api_key', 'Authorization', 'X-Goog-Api-Key'])
      expect(apiKeyNameProblem('header', name)).toBeUndefined();
    for (const name of [
      'Host',
      'HOST',
      'Keep-Alive',
      'Upgrade',
      'TE',
      'Trailer',
      'Sec-Fetch-Mode',
      'Proxy-Foo',
      'traceparent',
      '',
      'a:b',
    ]) {
      expect(apiKeyNameProblem('header', name)).toBeDefined();
    }
    expect(apiKeyNameProblem('header', 'x'.repeat(257))).toContain('longer than 256');
  });

  it('cookie names: tokens; query names: printable ASCII without & = # ; + % or space', () => {
    expect(apiKeyNameProblem('cookie', 'session_id')).toBeUndefined();
    for (const name of ['a b', 'a,b', 'a"b', 'é']) expect(apiKeyNameProblem('cookie', name)).toBeDefined();
    expect(apiKeyNameProblem('query', 'filter[key]')).toBeUndefined();
    for (const name of ['a b', 'a+b', 'a%20', 'a;b', 'é', 'a\tb']) expect(apiKeyNameProblem('query', name)).toBeDefined();
  });
});
