import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TurnEvent } from '../../../src/port/events.js';
import { formatPosition, parsePosition, positionAfter, type ReplyPosition } from '../../../src/render/position.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import { bookedReply, INPUT_QUESTION, startV03Agent, startV1Agent, tickText, type FixtureAgent } from '../../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { runResume } from '../../../src/turn/turn.js';
import { collect, endOf, FAST, folded } from '../harness.js';

// Twelve ticks over 1.2 s: room for a busy machine to find the task still running after the first process died.
const TIMING = { tickMs: 100, slowTotalMs: 1_200 };
const SLOW_REPLY = Array.from({ length: 12 }, (_, i) => tickText(i + 1)).join('');

/**
 * A process that started a `slow` turn dies mid-reply: its stream is cut with no CancelTask (as a
 * crash leaves it), and the agent's task runs on. Another process resumes that task by its id.
 */
async function dyingTurn(agent: FixtureAgent, http: NodeFetch, contextId?: string): Promise<string> {
  const url = agent.url('/');
  const card = (await (await http.fetch(`${url}.well-known/agent-card.json`)).json()) as {
    supportedInterfaces?: { url: string }[];
    url?: string;
  };
  const endpoint = card.supportedInterfaces?.[0]?.url ?? card.url!;
  const legacy = card.supportedInterfaces === undefined;
  const controller = new AbortController();
  const context = contextId === undefined ? {} : { contextId };
  const body = legacy
    ? {
        jsonrpc: '2.0',
        id: 1,
        method: 'message/stream',
        params: {
          message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'slow' }], ...context },
        },
      }
    : {
        jsonrpc: '2.0',
        id: 1,
        method: 'SendStreamingMessage',
        params: { message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'slow' }], ...context } },
      };
  const response = await http.fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'A2A-Version': legacy ? '0.3' : '1.0' },
    body: JSON.stringify(body),
    signal: controller.signal,
  });
  const reader = response.body!.getReader();
  let seen = '';
  // Read until the stream named the task and the reply has begun, then die.
  for (let id: string | undefined; ;) {
    const { value } = await reader.read();
    seen += new TextDecoder().decode(value);
    id ??= /"(?:id|taskId)":"([0-9a-f-]{36})"/.exec(seen)?.[1];
    if (id !== undefined && seen.includes(tickText(2))) {
      controller.abort();
      return id;
    }
  }
}

/** One v1.0 and one v0.3 fixture agent (their `slow` task ticks 12 times in 1.2 s) for every test here. */
let v1: FixtureAgent;
let v03: FixtureAgent;
let http: NodeFetch;
beforeAll(async () => {
  [v1, v03] = await Promise.all([startV1Agent({ timing: TIMING }), startV03Agent({ timing: TIMING })]);
  http = createNodeFetch();
});
afterAll(async () => {
  await Promise.all([v1.close(), v03.close(), http.close()]);
});

describe('resuming a task another process started, by its id', () => {
  for (const version of ['v1.0', 'v0.3'] as const) {
    it(`${version}: the whole reply once, from the snapshot to the end; nothing sent, nothing cancelled`, async () => {
      const agent = version === 'v1.0' ? v1 : v03;
      const taskId = await dyingTurn(agent, http);
      const before = agent.received.length;
      const events = await collect(runResume(createSdkPorts({ fetch: http.fetch })(agent.url('/')), { taskId }, FAST));
      expect(endOf(events)).toMatchObject({ outcome: 'completed', text: SLOW_REPLY, taskId });
      expect(folded(events)).toBe(SLOW_REPLY);
      const methods = agent.received.slice(before).map((r) => r.method);
      expect(methods.filter((m) => /send|stream|cancel/i.test(m) && !/subscribe/i.test(m))).toEqual([]);
      expect(methods.filter((m) => /subscribe/i.test(m))).toHaveLength(1);
    });

    it(`${version}: a task the agent does not know is the error, nothing cancelled`, async () => {
      const agent = version === 'v1.0' ? v1 : v03;
      const before = agent.received.length;
      const turn$ = runResume(
        createSdkPorts({ fetch: http.fetch })(agent.url('/')),
        { taskId: '00000000-0000-4000-8000-000000000000' },
        FAST,
      );
      await expect(collect(turn$)).rejects.toMatchObject({ kind: 'task-not-found' });
      expect(agent.received.slice(before).filter((r) => /cancel/i.test(r.method))).toEqual([]);
    });
  }
});

describe("a client resumes a thread's reply in flight after another process died", () => {
  const SECRET = 'a shared secret of at least sixteen bytes';
  /** A fresh client, as a new process or another replica has: the secret and nothing else. */
  const client = () => createA2A({ identitySecret: SECRET, ports: createSdkPorts({ fetch: http.fetch }) });

  it('v1.0, by thread: the running task found with ListTasks, its reply whole and once, nothing cancelled', async () => {
    const a2a = client();
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'resume-running' };
    const taskId = await dyingTurn(v1, http, await a2a.contextId(thread.handle, thread.thread));
    const before = v1.received.length;
    const events = await lastValueFrom(a2a.resume(thread).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY, taskId });
    expect(folded(events)).toBe(SLOW_REPLY);
    const methods = v1.received.slice(before).map((r) => r.method);
    expect(methods.filter((m) => !m.startsWith('GET'))).toEqual(['ListTasks', 'SubscribeToTask']);
    await a2a.close();
  });

  it("v1.0, by thread: the agent's question survives the process; the answer through a new client continues that task", async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'resume-question' };
    const first = client();
    const asked = await lastValueFrom(first.turn({ ...thread, text: 'input' }));
    expect(asked).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION });
    await first.close();
    const second = client();
    const resumed = await lastValueFrom(second.resume(thread));
    expect(resumed).toMatchObject({
      type: 'end',
      outcome: 'input-required',
      text: INPUT_QUESTION,
      taskId: (asked as { taskId: string }).taskId,
    });
    const answered = await lastValueFrom(second.turn({ ...thread, text: 'Paris' }));
    expect(answered).toMatchObject({
      type: 'end',
      outcome: 'completed',
      text: bookedReply('Paris'),
      taskId: (asked as { taskId: string }).taskId,
    });
    await second.close();
  });

  it('v1.0: a replica closing with detach hands its turn over (no CancelTask); another resumes it whole', async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'resume-detach' };
    const leaving = client();
    const seen: TurnEvent[] = [];
    const ended = new Promise<unknown>((resolve) =>
      leaving
        .turn({ ...thread, text: 'slow' })
        .subscribe({ next: (e) => seen.push(e), error: resolve, complete: () => resolve('completed') }),
    );
    await vi.waitFor(() => expect(folded(seen)).toContain(tickText(2)), { timeout: 5_000 });
    const before = v1.received.length;
    await leaving.close({ detach: true });
    expect(await ended).toMatchObject({ kind: 'aborted', message: expect.stringContaining('hand its turns over') });
    const staying = client();
    const end = await lastValueFrom(staying.resume(thread));
    expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
    expect(
      v1.received
        .slice(before)
        .map((r) => r.method)
        .filter((m) => /cancel/i.test(m)),
    ).toEqual([]);
    await staying.close();
  });

  it('v1.0: a client that had part of the reply reconnects with its position to another replica and gets exactly the rest', async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'resume-position' };
    const first = client();
    let position: ReplyPosition | undefined;
    let shown = '';
    const ended = new Promise<unknown>((resolve) =>
      first.turn({ ...thread, text: 'slow' }).subscribe({
        next: (event) => {
          position = positionAfter(position, event);
          if (event.type === 'text') shown = event.replace ? event.text : shown + event.text;
        },
        error: resolve,
      }),
    );
    await vi.waitFor(() => expect(shown).toContain(tickText(3)), { timeout: 5_000 });
    await first.close({ detach: true });
    await ended;
    // What the client's reconnect carries: the SSE id, as text.
    const from = parsePosition(formatPosition(position!))!;
    expect(from.delivered).toBe(shown.length);
    const second = client();
    const events = await lastValueFrom(second.resume({ ...thread, from }).pipe(toArray()));
    expect(shown + folded(events)).toBe(SLOW_REPLY);
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY, taskId: from.taskId });
    await second.close();
  });

  it("v1.0: a new process's first message on the thread answers the question another process showed, in its task", async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'first-message-continues' };
    const first = client();
    const asked = (await lastValueFrom(first.turn({ ...thread, text: 'input' }))) as { outcome: string; taskId: string };
    expect(asked.outcome).toBe('input-required');
    await first.close();
    const second = client();
    const answered = await lastValueFrom(second.turn({ ...thread, text: 'Paris' }));
    expect(answered).toMatchObject({ type: 'end', outcome: 'completed', text: bookedReply('Paris'), taskId: asked.taskId });
    await second.close();
  });

  it('v1.0, by thread: nothing unfinished is an end that says so', async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'resume-nothing' };
    const a2a = client();
    await lastValueFrom(a2a.turn({ ...thread, text: 'artifacts' }));
    const events = await lastValueFrom(a2a.resume(thread).pipe(toArray()));
    expect(events.map((e) => e.type)).toEqual(['start', 'end']);
    expect(events.at(-1)).toMatchObject({ outcome: 'none', text: '' });
    await a2a.close();
  });

  it('v0.3: by thread is unsupported (no ListTasks); by task id it resumes', async () => {
    const a2a = client();
    const thread = { agent: v03.url('/'), handle: 'bot', thread: 'resume-v03' };
    await expect(lastValueFrom(a2a.resume(thread))).rejects.toMatchObject({ kind: 'unsupported', operation: 'list-tasks' });
    const taskId = await dyingTurn(v03, http, await a2a.contextId(thread.handle, thread.thread));
    const end = await lastValueFrom(a2a.resume({ ...thread, taskId }));
    expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY, taskId });
    await a2a.close();
  });
});

describe("leaving a turn with onLeave: 'detach' hands its task over (a gateway whose browser reconnects)", () => {
  const SECRET = 'a shared secret of at least sixteen bytes';
  const client = () => createA2A({ identitySecret: SECRET, ports: createSdkPorts({ fetch: http.fetch }) });
  const cancels = (from: number) => v1.received.slice(from).filter((r) => /cancel/i.test(r.method));

  for (const way of ['turn', 'resume'] as const) {
    it(`v1.0: a ${way} left mid-reply sends no CancelTask; the task ends completed and a resume gets it whole`, async () => {
      const thread = { agent: v1.url('/'), handle: 'bot', thread: `leave-detach-${way}` };
      const a2a = client();
      const before = v1.received.length;
      if (way === 'resume') await dyingTurn(v1, http, await a2a.contextId(thread.handle, thread.thread));
      const turn$ =
        way === 'turn' ? a2a.turn({ ...thread, text: 'slow', onLeave: 'detach' }) : a2a.resume({ ...thread, onLeave: 'detach' });
      const seen: TurnEvent[] = [];
      const subscription = turn$.subscribe((event) => seen.push(event));
      await vi.waitFor(() => expect(folded(seen)).toContain(tickText(3)), { timeout: 5_000 });
      subscription.unsubscribe();
      const end = await lastValueFrom(client().resume(thread));
      expect(end).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
      await a2a.close();
      expect(cancels(before)).toEqual([]);
    });
  }

  it("v1.0: without onLeave (or with 'cancel') leaving cancels the task, as always", async () => {
    for (const onLeave of [undefined, 'cancel'] as const) {
      const thread = { agent: v1.url('/'), handle: 'bot', thread: `leave-cancel-${onLeave}` };
      const a2a = client();
      const before = v1.received.length;
      const seen: TurnEvent[] = [];
      const subscription = a2a.turn({ ...thread, text: 'slow', ...(onLeave ? { onLeave } : {}) }).subscribe((event) => seen.push(event));
      await vi.waitFor(() => expect(folded(seen)).toContain(tickText(2)), { timeout: 5_000 });
      subscription.unsubscribe();
      await a2a.close();
      expect(cancels(before)).toHaveLength(1);
    }
  });

  it("v1.0: with onLeave: 'detach' a deadline still cancels (only leaving hands over)", async () => {
    const thread = { agent: v1.url('/'), handle: 'bot', thread: 'leave-detach-deadline' };
    const a2a = createA2A({ identitySecret: SECRET, ports: createSdkPorts({ fetch: http.fetch }), policy: { turnTimeoutMs: 400 } });
    const before = v1.received.length;
    await expect(lastValueFrom(a2a.turn({ ...thread, text: 'slow', onLeave: 'detach' }))).rejects.toMatchObject({ kind: 'timeout' });
    await a2a.close();
    expect(cancels(before)).toHaveLength(1);
  });

  it('an onLeave that is neither is an input error before any request', async () => {
    const a2a = client();
    const before = v1.received.length;
    const input = { agent: v1.url('/'), handle: 'bot', thread: 'leave-bad', onLeave: 'later' as 'detach' };
    await expect(lastValueFrom(a2a.turn({ ...input, text: 'hi' }))).rejects.toMatchObject({
      kind: 'input',
      message: expect.stringContaining('onLeave'),
    });
    await expect(lastValueFrom(a2a.resume(input))).rejects.toMatchObject({ kind: 'input' });
    expect(v1.received.length).toBe(before);
    await a2a.close();
  });
});
