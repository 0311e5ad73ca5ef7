/**
 * One gateway replica (examples/gateway/replica.mjs) in front of the demo agent, without a load
 * balancer: its SSE format and resumable ids, a client that drops its stream and comes back (the
 * task is left running, not cancelled), a message asked for by its id after its stream broke before
 * the task was named (delivered once), and the requests it refuses: their status, a short reason that
 * echoes nothing, nothing sent to the agent, and log lines that quote what they name.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DemoAgent } from '../../demo/agent.js';
import { followTurn } from '../../examples/gateway/client-follow.mjs';
import { startGateway, type Gateway } from '../../examples/gateway/replica.mjs';
import { haproxyConfig } from '../../examples/gateway/haproxy.mjs';
import { devIssuer } from '../../examples/gateway/token.mjs';
import { deriveContextId, parsePosition } from '../../src/index.js';
import { agentTasks } from './agent-truth.js';
import { startSoloGateway, type SoloGateway } from './rig.js';

const SECRET = 'gateway-test-secret-not-for-production';
const USER = 'ada';
let solo: SoloGateway | undefined;
let dir = '';
let agent: DemoAgent;
let gateway: Gateway;
let token = '';
const agentLog: string[] = [];
const gatewayLog: string[] = [];

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

const auth = () => ({ authorization: `Bearer ${token}` });
const post = (thread: string, body: unknown, signal?: AbortSignal) =>
  fetch(new URL(`threads/${encodeURIComponent(thread)}/messages`, gateway.url), {
    method: 'POST',
    headers: auth(),
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
const textOf = (events: EventSourceMessage[]) =>
  events
    .filter((e) => e.event === 'text')
    .map((e) => JSON.parse(e.data) as { text: string; replace: boolean })
    .reduce((reply, e) => (e.replace ? e.text : reply + e.text), '');
const tasksOf = async (thread: string) => agentTasks(agent.url, await deriveContextId(SECRET, USER, thread));

beforeAll(async () => {
  solo = await startSoloGateway({
    prefix: 'a4h-gateway-test-',
    secret: SECRET,
    agent: { chunkDelayMs: 20, log: (line) => agentLog.push(line) },
    log: (line) => gatewayLog.push(line),
  });
  ({ dir, agent, gateway } = solo);
  token = await solo.issuer.sign(USER);
});

afterAll(() => solo?.close());

describe('one gateway replica', { timeout: 30_000 }, () => {
  it('streams a turn as SSE once the agent named the task: event types, ids that are reply positions, no contextId', async () => {
    const response = await post('format', { text: 'hello', messageId: 'm-format' });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(response.headers.get('x-replica')).toBe('solo');
    expect(response.headers.get('x-heartbeat-ms')).toBe('5000');
    const events = await readEvents(response);
    expect(events.slice(0, 2).map((e) => e.event)).toEqual(['start', 'task']);
    expect(JSON.parse(events[0]!.data)).toEqual({ type: 'start', messageId: 'm-format' });
    const end = JSON.parse(events.at(-1)!.data) as { type: string; outcome: string; text: string; taskId: string };
    expect(end).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(events.every((e) => e.event === (JSON.parse(e.data) as { type: string }).type)).toBe(true);
    expect(events.some((e) => 'contextId' in (JSON.parse(e.data) as object))).toBe(false);
    let delivered = 0;
    for (const event of events.slice(1)) {
      if (event.event === 'text') delivered += (JSON.parse(event.data) as { text: string }).text.length;
      expect(parsePosition(event.id!)).toMatchObject({ delivered, taskId: end.taskId });
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
    const followed = await followTurn({ gateway: gateway.url, token, thread, from: lastId });
    const whole = textOf(first) + followed.reply;
    expect(followed.end).toMatchObject({ outcome: 'completed', text: whole });
    expect((await tasksOf(thread)).map((t) => [t.completed, t.reply])).toEqual([[true, whole]]);
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
    const followed = await followTurn({ gateway: gateway.url, token, thread });
    expect(followed.end).toMatchObject({ outcome: 'completed' });
    expect(followed.reply).toBe(followed.end!.text);
    expect(followed.reply.startsWith(textOf(first))).toBe(true);
  });

  it('with nothing in flight on the thread, the stream says so: start, then end with outcome none', async () => {
    const events = await readEvents(await fetch(new URL('threads/quiet/events', gateway.url), { headers: auth() }));
    expect(events.map((e) => e.event)).toEqual(['start', 'end']);
    expect(JSON.parse(events[1]!.data)).toMatchObject({ outcome: 'none' });
  });

  it('a message given with its id is asked for first: its turn followed if the agent got it, else sent once', async () => {
    const thread = 'asked-for';
    // Sent, its turn never seen by the client that comes back with the id (say it crashed).
    await readEvents(await post(thread, { text: 'hello once', messageId: 'm-once' }));
    const again = await followTurn({ gateway: gateway.url, token, thread, text: 'hello once', messageId: 'm-once' });
    expect(again).toMatchObject({ resent: 0, end: { outcome: 'completed' } });
    expect(again.reply).toBe(again.end!.text);
    // A message the agent never got: asked for (not-received), then sent, once, with its id.
    const fresh = await followTurn({ gateway: gateway.url, token, thread, text: 'hello twice', messageId: 'm-never-sent' });
    expect(fresh).toMatchObject({ resent: 1, end: { outcome: 'completed' } });
    const tasks = await tasksOf(thread);
    expect(tasks.map((t) => t.messageIds).sort()).toEqual([['m-never-sent'], ['m-once']]);
    expect(tasks.every((t) => t.completed)).toBe(true);
  });

  it('refuses what it cannot serve with a status and a short reason that echoes nothing; nothing reaches the agent', async () => {
    const before = agentLog.length;
    const expectRefused = async (response: Promise<Response>, status: number, reason: RegExp) => {
      const answer = await response;
      expect(answer.status).toBe(status);
      const body = await answer.text();
      expect(body.length).toBeLessThan(120);
      expect((JSON.parse(body) as { error: string }).error).toMatch(reason);
      return body;
    };
    const events = (path: string, headers: Record<string, string> = {}) =>
      fetch(new URL(path, gateway.url), { headers: { ...auth(), ...headers } });
    await expectRefused(post('bad', 'not json'), 400, /JSON object/);
    await expectRefused(post('bad', { text: '  ' }), 400, /text/);
    await expectRefused(post('x'.repeat(201), { text: 'hi' }), 400, /at most 200/);
    await expectRefused(post('bad', { text: 'hi', messageId: 'a\nb' }), 400, /messageId/);
    await expectRefused(post('bad', { text: 'hi', taskId: 'x'.repeat(300) }), 400, /taskId/);
    await expectRefused(events('threads/bad/events', { 'last-event-id': 'someone-elses-id' }), 400, /Last-Event-ID/);
    await expectRefused(events('threads/bad/events?message=m1&from=1.t'), 400, /not both/);
    await expectRefused(events('threads/bad/events?sent=1'), 400, /sent goes with message/);
    await expectRefused(events('threads/bad/events?message=m1&sent=yesterday'), 400, /sent must be a time/);
    await expectRefused(events('threads/bad/events?message=m1&sent=1234567890123456'), 400, /sent must be a time/);
    await expectRefused(post('bad', { text: 'x'.repeat(70_000) }), 413, /over/);
    await expectRefused(events('threads/bad/messages'), 405, /POST/);
    await expectRefused(fetch(new URL('threads/bad/cancel', gateway.url), { method: 'POST', headers: auth(), body: '{}' }), 400, /taskId/);
    await expectRefused(events('elsewhere'), 404, /not found/);
    // Keys: bad percent-encoding, control characters (a forged log line), line separators, bidi overrides.
    for (const key of ['%E0%A4%A', '%ZZ', 'a%0Ab', 'a%0D%0Agateway%20A%3A%20forged', '%1B%5B31m', 'a%E2%80%A8b', 'a%E2%80%AEb']) {
      const body = await expectRefused(events(`threads/${key}/events`), 400, /thread key/);
      expect(body).not.toContain('forged');
    }
    expect(agentLog.length).toBe(before);
    // What the log names, it quotes: no line break inside a line, keys as JSON strings.
    await followTurn({ gateway: gateway.url, token, thread: 'quoted "key" \u00e9', text: 'hi' });
    expect(gatewayLog.some((line) => line.startsWith('"ada" "quoted \\"key\\" \u00e9": message "'))).toBe(true);
    expect(gatewayLog.every((line) => !/[\r\n]/.test(line))).toBe(true);
  });

  it('past its bound of streams it refuses before taking: 503, Retry-After, X-Message-Taken: no; a stream that ends frees its place', async () => {
    const issuer = await devIssuer(join(dir, 'issuer'));
    const log: string[] = [];
    const small = await startGateway({
      agent: agent.url,
      secret: SECRET,
      name: 'small',
      maxStreams: 1,
      auth: { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience },
      log: (line) => log.push(line),
    });
    try {
      const to = (path: string, init: RequestInit = {}) => fetch(new URL(path, small.url), { ...init, headers: auth() });
      const message = (thread: string, text: string, signal?: AbortSignal) =>
        to(`threads/${thread}/messages`, {
          method: 'POST',
          body: JSON.stringify({ text, messageId: `${thread}-m` }),
          ...(signal ? { signal } : {}),
        });
      const leave = new AbortController();
      const holding = await message('held', 'slow please', leave.signal);
      expect(holding.status).toBe(200);
      const tasksBefore = (await tasksOf('refused')).length;
      for (const refused of [message('refused', 'hi'), to('threads/refused/events?message=refused-m')]) {
        const answer = await refused;
        expect(answer.status).toBe(503);
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('x-message-taken')).toBe('no');
        await answer.body?.cancel();
      }
      expect(log.some((line) => line.includes('"refused"'))).toBe(false);
      await readEvents(holding, (seen) => seen.some((e) => e.event === 'task'), leave); // the client leaves: its place is free
      const followed = await followTurn({ gateway: small.url, token, thread: 'refused', text: 'hi' });
      expect(followed).toMatchObject({ end: { outcome: 'completed' } });
      expect((await tasksOf('refused')).length).toBe(tasksBefore + 1);
    } finally {
      await small.close();
    }
  });

  it('error events say what failed in the gateway’s words: never the agent’s internal URL', async () => {
    const dead = await startGateway({
      agent: 'http://127.0.0.1:9/',
      secret: SECRET,
      name: 'dead-agent',
      verify: async () => USER,
      log: () => undefined,
    });
    try {
      const response = await fetch(new URL('threads/t/messages', dead.url), { method: 'POST', body: '{"text":"hi"}' });
      const body = await response.text();
      expect(body).toContain('event: error');
      expect(body).toContain('the agent');
      expect(body).not.toMatch(/127\.0\.0\.1|:9\/|http:/);
    } finally {
      await dead.close();
    }
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
