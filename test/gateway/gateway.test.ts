/**
 * One gateway replica (examples/gateway/gateway.mjs) in front of the demo agent, without a load
 * balancer: its SSE format and resumable ids, a client that drops its stream and comes back (the
 * task is left running, not cancelled), a stream for a thread whose client lost even its id, and
 * the requests it refuses.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { followTurn } from '../../examples/gateway/client.mjs';
import { HANDLE, startGateway, type Gateway } from '../../examples/gateway/gateway.mjs';
import { haproxyConfig } from '../../examples/gateway/haproxy.mjs';
import { deriveContextId } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';

const SECRET = 'gateway-test-secret-not-for-production';
let dir = '';
let agent: DemoAgent;
let gateway: Gateway;
const agentLog: string[] = [];

/** Every SSE event of a response, read to its end (or until `until` says stop, aborting it). */
async function readEvents(response: Response, until?: (events: EventSourceMessage[]) => boolean, abort?: AbortController) {
  const events: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event) });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of response.body!) {
      parser.feed(decoder.decode(chunk, { stream: true }));
      if (until?.(events)) {
        abort?.abort();
        break;
      }
    }
  } catch (error) {
    if (!abort?.signal.aborted) throw error;
  }
  return events;
}

const post = (thread: string, body: unknown, signal?: AbortSignal) =>
  fetch(new URL(`threads/${encodeURIComponent(thread)}/messages`, gateway.url), {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
const textOf = (events: EventSourceMessage[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => JSON.parse(e.data) as { text: string; replace: boolean })
    .reduce((reply, e) => (e.replace ? e.text : reply + e.text), '');

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-gateway-test-'));
  agent = await startDemoAgent({ port: 0, memoryFile: join(dir, 'memory.json'), chunkDelayMs: 20, log: (line) => agentLog.push(line) });
  gateway = await startGateway({ agent: agent.url, secret: SECRET, name: 'solo' });
});

afterAll(async () => {
  await gateway?.close();
  await agent?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('one gateway replica', { timeout: 30_000 }, () => {
  it('streams a turn as SSE: event types, and from the task on an id that is the reply position', async () => {
    const response = await post('format', { text: 'hello' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-replica')).toBe('solo');
    const events = await readEvents(response);
    expect(events[0]).toMatchObject({ event: 'start', id: undefined });
    const end = JSON.parse(events.at(-1)!.data) as { type: string; outcome: string; text: string; taskId: string };
    expect(end).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(events.every((e) => e.event === (JSON.parse(e.data) as { type: string }).type)).toBe(true);
    const fromTask = events.slice(events.findIndex((e) => e.event === 'task'));
    let delivered = 0;
    for (const event of fromTask) {
      if (event.event === 'text') delivered += (JSON.parse(event.data) as { text: string }).text.length;
      expect(event.id).toBe(`${delivered}.${end.taskId}`);
    }
    expect(delivered).toBe(end.text.length);
    expect(textOf(events)).toBe(end.text);
  });

  it('a client that drops its stream mid-reply and reconnects with Last-Event-ID gets exactly the rest; the task was not cancelled', async () => {
    const thread = 'dropped';
    const abort = new AbortController();
    const first = await readEvents(
      await post(thread, { text: 'tell me a long story' }, abort.signal),
      (events) => textOf(events).split(' ').length > 4,
      abort,
    );
    const lastId = first.filter((e) => e.id !== undefined).at(-1)!.id!;
    const followed = await followTurn({ gateway: gateway.url, thread, from: lastId });
    const whole = textOf(first) + followed.reply;
    expect(followed.end).toMatchObject({ outcome: 'completed', text: whole });
    const tasks = await agentTasks(agent.url, await deriveContextId(SECRET, HANDLE, thread));
    expect(tasks.map((t) => [t.completed, t.reply])).toEqual([[true, whole]]);
    expect(agentLog.filter((line) => line.endsWith('canceled'))).toEqual([]);
  });

  it('a client that lost even its id (a reload) asks for the thread: the reply in progress, from its beginning', async () => {
    const thread = 'reloaded';
    const abort = new AbortController();
    const first = await readEvents(
      await post(thread, { text: 'tell me another story' }, abort.signal),
      (events) => textOf(events) !== '',
      abort,
    );
    expect(textOf(first)).not.toBe('');
    const followed = await followTurn({ gateway: gateway.url, thread });
    expect(followed.end).toMatchObject({ outcome: 'completed' });
    expect(followed.reply).toBe(followed.end!.text);
    expect(followed.reply.startsWith(textOf(first))).toBe(true);
  });

  it('with nothing in flight on the thread, the stream says so: start, then end with outcome none', async () => {
    const response = await fetch(new URL('threads/quiet/events', gateway.url));
    const events = await readEvents(response);
    expect(events.map((e) => e.event)).toEqual(['start', 'end']);
    expect(JSON.parse(events[1]!.data)).toMatchObject({ outcome: 'none' });
  });

  it('refuses what it cannot serve, with a status and a reason, before anything reaches the agent', async () => {
    const before = agentLog.length;
    const expectRefused = async (response: Promise<Response>, status: number, reason: RegExp) => {
      const answer = await response;
      expect(answer.status).toBe(status);
      expect(((await answer.json()) as { error: string }).error).toMatch(reason);
    };
    await expectRefused(post('bad', 'not json'), 400, /JSON object/);
    await expectRefused(post('bad', { text: '  ' }), 400, /text/);
    await expectRefused(post('x'.repeat(201), { text: 'hi' }), 400, /at most 200/);
    await expectRefused(
      fetch(new URL('threads/bad/events', gateway.url), { headers: { 'last-event-id': 'someone-elses-id' } }),
      400,
      /Last-Event-ID/,
    );
    await expectRefused(post('bad', { text: 'x'.repeat(70_000) }), 413, /over/);
    await expectRefused(fetch(new URL('threads/bad/messages', gateway.url)), 405, /POST/);
    await expectRefused(fetch(new URL('threads/bad/cancel', gateway.url), { method: 'POST', body: '{}' }), 400, /taskId/);
    await expectRefused(fetch(new URL('elsewhere', gateway.url)), 404, /not found/);
    expect(agentLog.length).toBe(before);
  });
});

describe("docs/replicas.md's haproxy configuration", () => {
  it('is the one the example writes', async () => {
    const page = await readFile(new URL('../../docs/replicas.md', import.meta.url), 'utf8');
    const block = /\n```\n(global\n[\s\S]*?)```/.exec(page)?.[1];
    const names = ['A', 'B', 'C'];
    const replicas = names.map((name) => ({ name, port: `PORT_${name}` as unknown as number }));
    expect(block).toBe(haproxyConfig({ port: 8080, replicas }));
  });
});
