/**
 * The fixture agents (fixtures/) driven by the raw @a2a-js/sdk client, v1.0 and v0.3.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ARTIFACT_CHUNKS,
  AUTH_PROMPT,
  FAIL_MESSAGE,
  INPUT_QUESTION,
  NEW_CONTEXT_PREFIX,
  REPLY,
  STATUS_PREVIEWS,
  V03_MOUNTS,
  V1_MOUNTS,
  V1_TENANT,
  bookedReply,
  echoReply,
  startV03Agent,
  startV1Agent,
} from '../fixtures/index.js';
import type { Client } from '@a2a-js/sdk/client';
import type { FixtureAgent } from '../fixtures/index.js';
import { FIXTURE_SCRIPT } from '../fixtures/behaviours.js';
import { v1Card, v1Interfaces } from '../fixtures/cards.js';
import { handles } from '../fixtures/handles.js';
import { startHost } from '../fixtures/http-host.js';
import { MAX_TRACKED_TASKS, TurnRegistry } from '../fixtures/lifecycle.js';
import { mountV1 } from '../fixtures/mount-v1.js';
import { artifactText, collect, connect, contextIdOf, stateName, taskIdOf, userRequest as request } from '../fixtures/sdk-client.js';

const ARTIFACT_LINES = [
  'task:SUBMITTED',
  'status:WORKING',
  `artifact:answer:${ARTIFACT_CHUNKS[0]}:F:F`,
  `artifact:answer:${ARTIFACT_CHUNKS[1]}:T:F`,
  `artifact:answer:${ARTIFACT_CHUNKS[2]}:T:F`,
  `artifact:answer:${ARTIFACT_CHUNKS[3]}:F:T`,
  'status:COMPLETED',
];

interface Target {
  name: string;
  start: () => Promise<FixtureAgent>;
  main: string;
  noresub: string;
  nostream: string;
  streamMethod: string;
  subscribeMethod: string;
}

const TARGETS: Target[] = [
  {
    name: 'v1 JSON-RPC',
    start: startV1Agent,
    ...V1_MOUNTS,
    streamMethod: 'SendStreamingMessage',
    subscribeMethod: 'SubscribeToTask',
  },
  {
    name: 'v0.3 JSON-RPC',
    start: startV03Agent,
    ...V03_MOUNTS,
    streamMethod: 'message/stream',
    subscribeMethod: 'tasks/resubscribe',
  },
];

describe.each(TARGETS)('fixture agent $name', (target) => {
  let agent: FixtureAgent;
  let client: Client;
  beforeAll(async () => {
    agent = await target.start();
    client = await connect(agent, target.main);
  });
  afterAll(() => agent.close());

  it('artifacts: three appends then a replacing last chunk', async () => {
    const got = await collect(client.sendMessageStream(request('artifacts please')));
    expect(got.error).toBeUndefined();
    expect(got.lines).toEqual(ARTIFACT_LINES);
    expect(agent.received.some((r) => r.mount === '/' && r.method === target.streamMethod)).toBe(true);
  });

  it('status, message, fail, echo, newctx', async () => {
    const status = await collect(client.sendMessageStream(request('status')));
    expect(status.lines).toEqual([
      'task:SUBMITTED',
      ...STATUS_PREVIEWS.map((m) => `status:WORKING:${m}`),
      `artifact:answer:${REPLY.status}:F:T`,
      'status:COMPLETED',
    ]);
    expect((await collect(client.sendMessageStream(request('message')))).lines).toEqual([`message:${REPLY.message}`]);
    const fail = await collect(client.sendMessageStream(request('fail')));
    expect(fail.lines.at(-1)).toBe(`status:FAILED:${FAIL_MESSAGE}`);
    const echo = await collect(client.sendMessageStream(request('hello there')));
    expect(echo.lines).toContain(`artifact:answer:${echoReply('hello there')}:F:T`);
    const newctx = await collect(client.sendMessageStream(request('newctx')));
    expect(newctx.events.map(contextIdOf).every((c) => c.startsWith(NEW_CONTEXT_PREFIX))).toBe(true);
    expect(newctx.lines).toContain(`artifact:answer:${REPLY.newctx}:F:T`);
  });

  it('input: INPUT_REQUIRED, then a follow-up on the task completes it', async () => {
    const first = await collect(client.sendMessageStream(request('input')));
    expect(first.lines.at(-1)).toBe(`status:INPUT_REQUIRED:${INPUT_QUESTION}`);
    const second = await collect(client.sendMessageStream(request('Paris', { taskId: taskIdOf(first) })));
    expect(second.lines).toContain(`artifact:booking:${bookedReply('Paris')}:F:T`);
    expect(second.lines.at(-1)).toBe('status:COMPLETED');
  });

  const untilAuth = (lines: string[]) => lines.some((x) => x.startsWith('status:AUTH_REQUIRED'));
  const stateOf = async (id: string) => stateName((await client.getTask({ tenant: '', id, historyLength: 0 })).status?.state);

  it('auth: AUTH_REQUIRED with a link, then completes by itself', async () => {
    const got = await collect(client.sendMessageStream(request('auth')), untilAuth);
    expect(got.lines.at(-1)).toBe(`status:AUTH_REQUIRED:${AUTH_PROMPT}`);
    const id = taskIdOf(got);
    await expect.poll(() => stateOf(id), { timeout: 3000 }).toBe('COMPLETED');
    expect(artifactText(await client.getTask({ tenant: '', id, historyLength: 0 }))).toBe(REPLY.auth);
  });

  it('a cancel at AUTH_REQUIRED sticks', async () => {
    const id = taskIdOf(await collect(client.sendMessageStream(request('auth')), untilAuth));
    const canceled = await client.cancelTask({ tenant: '', id, metadata: undefined });
    expect(stateName(canceled.status?.state)).toBe('CANCELED');
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await stateOf(id)).toBe('CANCELED');
  });

  it.each(['drop', 'cut'] as const)('%s on a non-streaming agent fails the blocking send', async (word) => {
    const c = await connect(agent, target.nostream);
    await expect(c.sendMessage(request(word))).rejects.toThrow();
  });

  it.each(['drop', 'cut'] as const)('%s: the stream breaks, a resubscribe reaches COMPLETED', async (word) => {
    const got = await collect(client.sendMessageStream(request(word)));
    expect(got.lines.at(-1)).toBe('artifact:answer:Recovered :F:F');
    if (word === 'drop') expect(String(got.error)).toMatch(/terminated/);
    else expect(got.error).toBeUndefined(); // a graceful end completes the SDK generator silently
    const again = await collect(client.resubscribeTask({ tenant: '', id: taskIdOf(got) }));
    expect(again.error).toBeUndefined();
    expect(again.lines[0]).toBe('task:WORKING');
    expect(again.lines.at(-1)).toBe('status:COMPLETED');
    expect(artifactText(await client.getTask({ tenant: '', id: taskIdOf(got), historyLength: 0 }))).toBe(REPLY[word]);
  });

  it('slow + cancelTask ends CANCELED', async () => {
    const stream = client.sendMessageStream(request('slow'));
    const head = await collect(stream, (l) => l.filter((x) => x.startsWith('artifact:')).length >= 2);
    const task = await client.cancelTask({ tenant: '', id: taskIdOf(head), metadata: undefined });
    expect(stateName(task.status?.state)).toBe('CANCELED');
  });

  it('a cancel on an open stream ends it with CANCELED', async () => {
    const stream = client.sendMessageStream(request('slow'));
    const first = await stream.next();
    const id = first.value?.payload?.$case === 'task' ? first.value.payload.value.id : '';
    const rest = collect(stream);
    await client.cancelTask({ tenant: '', id, metadata: undefined });
    const got = await rest;
    expect(got.error).toBeUndefined();
    expect(got.lines.at(-1)).toMatch(/^status:CANCELED/);
  });

  it('noresub refuses the resubscribe with UnsupportedOperation (-32004)', async () => {
    const c = await connect(agent, target.noresub);
    const head = await collect(c.sendMessageStream(request('slow')), (l) => l.length >= 2);
    const id = taskIdOf(head);
    const again = await collect(c.resubscribeTask({ tenant: '', id }));
    expect(again.lines).toEqual([]);
    expect(again.error).toBeInstanceOf(Error);
    const err = again.error as Error;
    expect(err.name).toBe('UnsupportedOperationError'); // the SDK maps -32004 to this class
    expect(stateName((await c.getTask({ tenant: '', id, historyLength: 0 })).status?.state)).toBe('WORKING');
    expect(agent.received.some((r) => r.mount === target.noresub && r.method === target.subscribeMethod)).toBe(true);
    await c.cancelTask({ tenant: '', id, metadata: undefined });
  });

  it('nostream: the client falls back to a blocking send', async () => {
    const c = await connect(agent, target.nostream);
    const got = await collect(c.sendMessageStream(request('artifacts')));
    expect(got.lines).toEqual(['task:COMPLETED']);
    const p = got.events[0]?.payload;
    expect(p?.$case === 'task' ? artifactText(p.value) : '').toBe(REPLY.artifacts);
  });

  it('records methods, params and headers, card fetches included', async () => {
    agent.received.length = 0;
    const c = await connect(agent, target.main);
    await collect(c.sendMessageStream(request('echo me'), { serviceParameters: { 'X-Probe': 'yes' } }));
    const card = agent.received.find((r) => r.method === 'GET /.well-known/agent-card.json');
    expect(card).toMatchObject({ mount: '/', path: '/.well-known/agent-card.json' });
    const send = agent.received.find((r) => r.method === target.streamMethod);
    expect(send?.headers['x-probe']).toBe('yes');
    expect(send?.headers['a2a-version']).toBe(target.name.startsWith('v1') ? '1.0' : '0.3');
    expect(send?.path).toBe('/a2a/jsonrpc');
    expect(JSON.stringify(send?.params)).toContain('echo me');
  });
});

describe('fixture agent v1 REST and tenant', () => {
  let agent: FixtureAgent;
  beforeAll(async () => {
    agent = await startV1Agent();
  });
  afterAll(() => agent.close());

  it('artifacts over HTTP+JSON', async () => {
    const client = await connect(agent, V1_MOUNTS.rest);
    expect((await collect(client.sendMessageStream(request('artifacts')))).lines).toEqual(ARTIFACT_LINES);
    const rest = agent.received.filter((r) => r.mount === V1_MOUNTS.rest).map((r) => r.method);
    expect(rest).toEqual(['GET /.well-known/agent-card.json', 'POST /message:stream']);
  });

  it('drop over HTTP+JSON, resubscribe completes', async () => {
    const client = await connect(agent, V1_MOUNTS.rest);
    const got = await collect(client.sendMessageStream(request('drop')));
    expect(String(got.error)).toMatch(/terminated/);
    const again = await collect(client.resubscribeTask({ tenant: '', id: taskIdOf(got) }));
    expect(again.lines.at(-1)).toBe('status:COMPLETED');
    expect(agent.received.some((r) => /^POST \/tasks\/.+:subscribe$/.test(r.method))).toBe(true);
  });

  it('the tenant from the card is sent on every call', async () => {
    const client = await connect(agent, V1_MOUNTS.tenant);
    const got = await collect(client.sendMessageStream(request('hi')));
    await client.getTask({ tenant: '', id: taskIdOf(got), historyLength: 0 });
    const calls = agent.received.filter((r) => r.mount === V1_MOUNTS.tenant && !r.method.startsWith('GET '));
    expect(calls.map((r) => r.method)).toEqual(['SendStreamingMessage', 'GetTask']);
    for (const call of calls) expect(call.params).toMatchObject({ tenant: V1_TENANT });
  });

  it('unknown paths are recorded with an empty mount and answered 404', async () => {
    const res = await fetch(`${agent.baseUrl}/nope?x=1`);
    expect(res.status).toBe(404);
    expect(agent.received.at(-1)).toMatchObject({ mount: '', method: 'GET /nope', path: '/nope?x=1' });
  });
});

describe('close()', () => {
  const settle = () => new Promise((resolve) => setTimeout(resolve, 50));
  const count = (kind: string) => handles().get(kind) ?? 0;
  const KINDS = ['TCPServerWrap', 'TCPSocketWrap', 'Timeout'];

  it('destroys keep-alive sockets, stops running tasks and leaves no handle behind', async () => {
    await settle();
    const before = KINDS.map(count);
    const agent = await startV1Agent();
    const client = await connect(agent, V1_MOUNTS.main);
    const head = await collect(client.sendMessageStream(request('slow')), (l) => l.length >= 2);
    expect(head.lines).toEqual(['task:SUBMITTED', 'status:WORKING']);
    expect(count('TCPServerWrap')).toBeGreaterThan(before[0] ?? 0);
    await agent.close();
    await expect(fetch(agent.url('/'))).rejects.toThrow();
    await settle();
    // No more of any kind than before (a timer of the test runner's own may come and go meanwhile).
    const after = KINDS.map(count);
    KINDS.forEach((kind, i) => expect(after[i], kind).toBeLessThanOrEqual(before[i] ?? 0));
  });
});

describe('agent kit', () => {
  it(`a turn registry keeps the contextIds of the ${MAX_TRACKED_TASKS} most recently started tasks`, () => {
    const registry = new TurnRegistry(new AbortController().signal);
    for (let i = 0; i <= MAX_TRACKED_TASKS; i++) registry.begin(`t${i}`, `c${i}`).done();
    expect(registry.cancel('t0')).toBe('');
    expect(registry.cancel('t1')).toBe('c1');
    registry.begin('t1', 'c1').done(); // started again: now the most recent
    registry.begin('t-new', 'c-new').done();
    expect(registry.cancel('t2')).toBe('');
    expect(registry.cancel('t1')).toBe('c1');
  });

  it('a host with record: false serves its agent, keeps no request log and leaves unknown paths to express', async () => {
    const host = await startHost({ record: false });
    const info = { name: 'plain', description: 'Not recorded.', version: '1.0.0', streaming: true, skills: [] };
    const card = v1Card(info, v1Interfaces(host, '/', ['JSONRPC']));
    mountV1(host, { mount: '/', card, script: FIXTURE_SCRIPT, bindings: ['JSONRPC'] });
    try {
      const client = await connect(host.agent, '/');
      expect((await collect(client.sendMessageStream(request('artifacts')))).lines).toEqual(ARTIFACT_LINES);
      const res = await fetch(`${host.baseUrl}/nope`);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(host.agent.received).toEqual([]);
    } finally {
      await host.agent.close();
    }
  });
});
