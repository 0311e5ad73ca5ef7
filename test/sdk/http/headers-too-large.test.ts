import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { createA2A } from '../../../src/node/create-a2a.js';
import { headersTooLarge } from '../../../src/sdk/wire/fetch/headers-too-large.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runTurn } from '../../../src/turn/turn.js';
import { failed, turn } from '../credentials-kit.js';
import { FAST } from '../harness.js';
import { rawCard, sendJson, startRawAgent, type RawAgent } from '../raw-agent.js';

// HTTP 431 (Request Header Fields Too Large): an error saying the request's headers were too large and
// which of what this client sent made them so, not "no agent card" nor a bare status. The agents are
// Node servers with a small `maxHeaderSize`: Node itself answers 431 past it, before any handler runs.

const SECRET = 'headers test identity secret 0123456789';
/** A credentials header larger than the agents' limit; its value must never show. */
const BIG = `big-header-value-${'v'.repeat(6_000)}`;

const agents: RawAgent[] = [];
afterEach(async () => {
  for (const agent of agents.splice(0)) await agent.close();
});

/** A v1.0 agent on a Node server that takes at most `maxHeaderSize` bytes of request line and headers. */
async function smallHeaderAgent(maxHeaderSize = 4_096, streaming = true): Promise<RawAgent & { calls: string[] }> {
  const calls: string[] = [];
  const agent = await startRawAgent(
    (_req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, rawCard(base, 'small headers', undefined, { capabilities: { streaming } }));
      }
      calls.push(rpc.method);
      sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32603, message: 'not this test' } });
    },
    { maxHeaderSize },
  );
  agents.push(agent);
  return Object.assign(agent, { calls });
}

function expectNoValue(error: A2AError): void {
  expect(error.message).not.toContain('vvvvvvvv');
  expect(JSON.stringify(error)).not.toContain('vvvvvvvv');
}

describe("an agent's 431, Node's own limit", () => {
  it('to the card fetch (credentials with the card): an http error naming the credentials, not "no agent card"', async () => {
    const agent = await smallHeaderAgent();
    const a2a = createA2A({
      identitySecret: SECRET,
      credentials: { [new URL(agent.url).origin]: { headers: { 'X-Big': BIG }, card: true } },
    });
    try {
      const error = failed(await turn(a2a, agent.url, 'hi'));
      expect(error).toMatchObject({ kind: 'http', status: 431, retryable: false, operation: 'card' });
      expect(error.message).toContain('the agent refused the request because its headers were too large (HTTP 431');
      expect(error.message).toMatch(/the largest part: the headers the credentials option adds for this agent \(X-Big\), 60\d\d bytes/);
      expect(error.message).not.toContain('no agent card');
      expectNoValue(error);
    } finally {
      await a2a.close();
    }
  });

  it('to a call (the card is public): the same, on the call; nothing is sent again', async () => {
    const agent = await smallHeaderAgent();
    const a2a = createA2A({
      identitySecret: SECRET,
      policy: FAST.policy,
      credentials: { [new URL(agent.url).origin]: { headers: { 'X-Big': BIG } } },
    });
    try {
      const error = failed(await turn(a2a, agent.url, 'hi'));
      expect(error).toMatchObject({ kind: 'http', status: 431, retryable: false });
      expect(['list-tasks', 'stream']).toContain(error.operation);
      expect(error.message).toMatch(/the headers the credentials option adds for this agent \(X-Big\), 60\d\d bytes/);
      expect(error.message).toMatch(/then .*other headers \(.*A2A-Version.*\)/);
      expectNoValue(error);
    } finally {
      await a2a.close();
    }
    expect(agent.calls).toEqual([]);
  });

  it('on the SDK’s reader and a blocking send too', async () => {
    for (const streaming of [true, false]) {
      const agent = await smallHeaderAgent(4_096, streaming);
      const ports = createSdkPorts({ reader: 'sdk', credentials: { [new URL(agent.url).origin]: { headers: { 'X-Big': BIG } } } });
      const error = await lastValueFrom(runTurn(ports(agent.url), { text: 'hi' }, FAST)).catch((e: unknown) => e as A2AError);
      expect(error).toMatchObject({ kind: 'http', status: 431, retryable: false, operation: streaming ? 'stream' : 'send' });
      expect((error as A2AError).message).toContain('the headers the credentials option adds for this agent (X-Big)');
    }
  });

  it('extensions too large: it names the extensions', async () => {
    const agent = await smallHeaderAgent();
    const uris = Array.from({ length: 40 }, (_, n) => `https://extensions.example/${'e'.repeat(150)}/${n}`);
    const a2a = createA2A({ identitySecret: SECRET, policy: FAST.policy, extensions: { [new URL(agent.url).origin]: uris } });
    try {
      const error = failed(await turn(a2a, agent.url, 'hi'));
      expect(error).toMatchObject({ kind: 'http', status: 431 });
      expect(error.message).toMatch(
        /the largest part: the extensions \(A2A-Extensions: the extensions option's and the turn's\), \d{4} bytes/,
      );
      expect(error.message).not.toContain('credentials option');
    } finally {
      await a2a.close();
    }
  });
});

describe('a 431 an agent writes itself', () => {
  it('to the card fetch, without credentials: still the headers, not "no agent card"', async () => {
    const agent = await startRawAgent((_req, res) => res.writeHead(431, { 'content-type': 'text/plain' }).end('too large'));
    agents.push(agent);
    const a2a = createA2A({ identitySecret: SECRET });
    try {
      const error = (await firstValueFrom(a2a.card(agent.url)).catch((e: unknown) => e)) as A2AError;
      expect(error).toMatchObject({ kind: 'http', status: 431, retryable: false, operation: 'card' });
      expect(error.message).toContain('its headers were too large (HTTP 431 Request Header Fields Too Large)');
      expect(error.message).toMatch(/the largest part: other headers \(A2A-Version, Accept\), \d+ bytes; then the URL's path and query/);
    } finally {
      await a2a.close();
    }
  });
});

describe('the message', () => {
  it('each part by what added it, largest first, names and sizes only', () => {
    const headers = new Headers({
      'X-Api-Key': 'k'.repeat(100),
      'A2A-Extensions': 'https://e.example/x',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      'A2A-Version': '1.0',
      'Content-Type': 'application/json',
    });
    const error = headersTooLarge({
      url: 'https://agent.example/a2a/tasks/T-1?api_key=qqqq',
      headers,
      credentialHeaders: ['X-Api-Key'],
      credentialQueryBytes: 13,
    });
    expect(error).toMatchObject({ kind: 'http', status: 431, retryable: false });
    expect(error.message).toBe(
      'the agent refused the request because its headers were too large (HTTP 431 Request Header Fields Too Large); ' +
        'the largest part: the headers the credentials option adds for this agent (X-Api-Key; its API key in the query), 126 bytes; ' +
        "then telemetry's trace context (traceparent), 70; " +
        'other headers (A2A-Version, Content-Type), 50; ' +
        "the extensions (A2A-Extensions: the extensions option's and the turn's), 37; " +
        "the URL's path and query, 14 " +
        '(297 bytes in all, besides the few the fetch adds itself: Host, User-Agent, …)',
    );
    expect(error.message).not.toContain('kkkk');
    expect(error.message).not.toContain('qqqq');
  });
});
