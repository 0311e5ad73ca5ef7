/** createA2A over a real agent: threads, their memory and derived contextIds, a thread's first message and resume, close() (the kit: client-kit.ts). */
import { lastValueFrom, of, Subject, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  bookedReply,
  echoReply,
  INPUT_QUESTION,
  NEW_CONTEXT_PREFIX,
  REPLY,
  startV1Agent,
  type FixtureAgent,
} from '../../fixtures/index.js';
import { createA2A, createClient } from '../../src/client/create-a2a.js';
import { deriveContextId } from '../../src/identity/context-id.js';
import { type NodeFetch } from '../../src/node/fetch.js';
import { createFakePort, ev, task, testCard } from '../../src/testing/index.js';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { useAgentRig } from '../agent-rig.js';
import { SECRET, spyLogger, run, endOf, sentMessages } from './client-kit.js';

describe('threads over a real agent', () => {
  let agent: FixtureAgent;
  let http: NodeFetch;
  useAgentRig(startV1Agent, (a, h) => ([agent, http] = [a, h]), { each: true });

  it('sends the derived contextId, and the agent sees it', async () => {
    const client = createA2A({ identitySecret: SECRET, fetch: http.fetch });
    const events = await run(client.turn({ agent: agent.url('/'), handle: 'travel', thread: 'thread-1', text: 'artifacts' }));
    const derived = await deriveContextId(SECRET, 'travel', 'thread-1');
    expect(events[0]).toEqual({ type: 'start', contextId: derived, messageId: expect.any(String) });
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts, contextId: derived });
    expect(sentMessages(agent)[0]?.contextId).toBe(derived);
  });

  it('the guard: an agent that replaces the contextId is followed, with an event each time and one log line per thread', async () => {
    const logger = spyLogger();
    const client = createA2A({ identitySecret: SECRET, fetch: http.fetch, logger });
    const input = { agent: agent.url('/'), handle: 'travel', thread: 'thread-guard', text: 'newctx' };
    const derived = await deriveContextId(SECRET, 'travel', 'thread-guard');

    const first = await run(client.turn(input));
    const adopted1 = first.find((e) => e.type === 'context-adopted');
    expect(adopted1).toMatchObject({ type: 'context-adopted', sent: derived, adopted: expect.stringMatching(`^${NEW_CONTEXT_PREFIX}`) });
    expect(endOf(first)).toMatchObject({ text: REPLY.newctx, contextId: (adopted1 as { adopted: string }).adopted });
    expect(first.findIndex((e) => e.type === 'context-adopted')).toBeLessThan(first.findIndex((e) => e.type === 'task'));

    const second = await run(client.turn(input));
    expect(sentMessages(agent)[1]?.contextId).toBe((adopted1 as { adopted: string }).adopted);
    expect(second.filter((e) => e.type === 'context-adopted')).toHaveLength(1);
    expect(logger.warn.mock.calls.filter(([, message]) => /replaced the contextId/.test(message))).toHaveLength(1);
    expect(client.thread(input.agent, 'travel', 'thread-guard')?.adoptedContextId).toBe(endOf(second).contextId);
  });

  it('follow-ups: after input-required the task id and contextId; after a finished task the contextId only', async () => {
    const client = createA2A({ identitySecret: SECRET, fetch: http.fetch });
    const thread = { agent: agent.url('/'), handle: 'travel', thread: 'thread-follow' };
    const derived = await deriveContextId(SECRET, 'travel', 'thread-follow');

    const asked = endOf(await run(client.turn({ ...thread, text: 'input' })));
    expect(asked).toMatchObject({ outcome: 'input-required', text: INPUT_QUESTION });
    expect(client.thread(thread.agent, 'travel', 'thread-follow')?.interruptedTaskId).toBe(asked.taskId);

    const booked = endOf(await run(client.turn({ ...thread, text: 'Paris' })));
    expect(booked).toMatchObject({ outcome: 'completed', text: bookedReply('Paris'), taskId: asked.taskId });
    // Nothing left pending: only that this process looked the thread up (its first message).
    expect(client.thread(thread.agent, 'travel', 'thread-follow')).toEqual({ lookedUp: true });

    await run(client.turn({ ...thread, text: 'artifacts' }));
    const sent = sentMessages(agent);
    expect(sent.map((m) => m.contextId)).toEqual([derived, derived, derived]);
    expect(sent.map((m) => m.taskId || undefined)).toEqual([undefined, asked.taskId, undefined]);
  });

  it('a follow-up whose task is gone is sent again with the contextId only', async () => {
    const client = createA2A({ identitySecret: SECRET, fetch: http.fetch });
    const thread = { agent: agent.url('/'), handle: 'travel', thread: 'thread-gone' };
    const asked = endOf(await run(client.turn({ ...thread, text: 'input' })));
    // the task ends out of band (another client cancels it)
    const { createSdkPorts } = await import('../../src/sdk/ports.js');
    await lastValueFrom(createSdkPorts({ fetch: http.fetch })(thread.agent).cancel(asked.taskId!));

    const events = await run(client.turn({ ...thread, text: 'Paris' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'task-gone', taskId: asked.taskId }));
    expect(endOf(events)).toMatchObject({ outcome: 'completed', text: echoReply('Paris') });
    expect(endOf(events).taskId).not.toBe(asked.taskId);
  });

  it('the secret never appears in a log line, an event or an error', async () => {
    const logger = spyLogger();
    const client = createA2A({ identitySecret: SECRET, fetch: http.fetch, logger, policy: { turnTimeoutMs: 300 } });
    const seen: unknown[] = [];
    for (const text of ['artifacts', 'newctx', 'input', 'slow']) {
      await lastValueFrom(client.turn({ agent: agent.url('/'), handle: 'travel', thread: `t-${text}`, text }).pipe(toArray())).then(
        (events) => seen.push(...events),
        (error: unknown) => seen.push(error, (error as Error).message, (error as Error).stack),
      );
    }
    await lastValueFrom(client.turn({ agent: 'http://127.0.0.1:1/', handle: 'travel', thread: 't', text: 'hi' })).catch((error: unknown) =>
      seen.push(error, (error as Error).message, (error as Error).stack),
    );
    for (const fn of Object.values(logger)) seen.push(...fn.mock.calls);
    const dump = JSON.stringify(seen, (_key, value: unknown) =>
      value instanceof Error ? { ...value, message: value.message, stack: value.stack } : value,
    );
    expect(seen.length).toBeGreaterThan(10);
    expect(dump).not.toContain(SECRET);
    expect(dump).not.toContain('correct horse');
  });
});

describe('thread memory', () => {
  it('is keyed by the normalised agent URL: http://h and http://h/ are one thread', async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => of(ev.task('T', 'input-required', { message: 'Which city?' })),
    });
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    await run(client.turn({ agent: 'http://127.0.0.1:1', handle: 'h', thread: 't', text: 'weather' }));
    expect(client.thread('http://127.0.0.1:1/', 'h', 't')?.interruptedTaskId).toBe('T');
    expect(client.thread('http://127.0.0.1:1/.well-known/agent-card.json', 'h', 't')?.interruptedTaskId).toBe('T');
    expect(client.thread('not a url', 'h', 't')).toBeUndefined();
    await run(client.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'Paris' }));
    expect(port.calls.flatMap((c) => (c.method === 'stream' ? [c.message.taskId] : []))).toEqual([undefined, 'T']);
  });
});

describe('derived contextIds', () => {
  it("a known thread's message derives none: each thread's id is derived once (synchronously), the oldest forgotten past maxThreads", async () => {
    const derived: string[] = [];
    const deriver = () => (handle: string, thread: string) => (derived.push(thread), `ctx-${handle}-${thread}`);
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('hi')) });
    const client = createClient(
      { identitySecret: SECRET, ports: () => port, maxThreads: 2, policy: { continueInterrupted: false } },
      { deriver },
    );
    const turn = (agent: string, thread: string) => run(client.turn({ agent, handle: 'h', thread, text: 'hi' }));
    for (const thread of ['a', 'b', 'a', 'b', 'c', 'b', 'a']) await turn('http://127.0.0.1:1/', thread);
    await turn('http://127.0.0.1:2/', 'a'); // another agent's thread of the same name: its own key, the same id
    expect(derived).toEqual(['a', 'b', 'c', 'a', 'a']);
    const sent = port.calls.flatMap((c) => (c.method === 'stream' ? [c.message.contextId] : []));
    expect(sent).toEqual(['a', 'b', 'a', 'b', 'c', 'b', 'a', 'a'].map((thread) => `ctx-h-${thread}`));
  });
});

describe("a thread's first message and resume", () => {
  const agent = 'http://127.0.0.1:1/';
  it('a thread resumed to its end was looked up: its next message sends no second ListTasks', async () => {
    const port = createFakePort({ card: () => of(testCard()), listTasks: () => of({ tasks: [] }), stream: () => of(ev.message('hi')) });
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    await run(client.resume({ agent, handle: 'h', thread: 't' }));
    await run(client.turn({ agent, handle: 'h', thread: 't', text: 'hello' }));
    expect(port.calls.map((c) => c.method).filter((m) => m === 'listTasks')).toHaveLength(1);
  });

  it('a resume that failed to look leaves the lookup to the next message; one by task id never counts', async () => {
    const derived = await deriveContextId(SECRET, 'h', 't');
    let answers = 0;
    const port = createFakePort({
      card: () => of(testCard()),
      listTasks: () => (answers++ === 0 ? throwError(() => new Error('down')) : of({ tasks: [] })),
      resubscribe: (taskId) => of(ev.task(taskId, 'completed', { contextId: derived })),
      stream: () => of(ev.message('hi')),
    });
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    await run(client.resume({ agent, handle: 'h', thread: 't' })).catch(() => undefined);
    await run(client.resume({ agent, handle: 'h', thread: 't', taskId: 'T' }));
    await run(client.turn({ agent, handle: 'h', thread: 't', text: 'hello' }));
    expect(port.calls.map((c) => c.method).filter((m) => m === 'listTasks')).toHaveLength(2);
  });
});

describe('close()', () => {
  it('a handOverWaitMs that is no whole number of milliseconds is a config error', async () => {
    for (const handOverWaitMs of [-1, 1.5, Number.NaN, 2 ** 31]) {
      const client = createA2A({ identitySecret: SECRET, ports: () => createFakePort({}) });
      await expect(client.close({ detach: true, handOverWaitMs })).rejects.toMatchObject({
        kind: 'config',
        message: expect.stringContaining('handOverWaitMs'),
      });
    }
  });

  for (const onLeave of [undefined, 'detach'] as const) {
    it(`ends a turn still running (onLeave ${onLeave ?? 'unset'}): aborted, its task cancelled, close resolves once that is answered`, async () => {
      const stream = new Subject<AgentEvent>();
      const cancelled = new Subject<Task>();
      const port = createFakePort({ card: () => of(testCard()), stream: () => stream, cancel: () => cancelled });
      const client = createA2A({ identitySecret: SECRET, ports: () => port, policy: { cancelTimeoutMs: 5_000 } });
      const ended = new Promise<unknown>((resolve) =>
        client
          .turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi', contextId: 'C', ...(onLeave ? { onLeave } : {}) })
          .subscribe({ error: resolve, complete: () => resolve('completed') }),
      );
      await Promise.resolve();
      stream.next(ev.task('T', 'working'));
      let closedYet = false;
      const closing = client.close().then(() => (closedYet = true));
      expect(await ended).toMatchObject({ kind: 'aborted', message: expect.stringContaining('its task was cancelled') });
      expect(stream.observed).toBe(false);
      expect(port.calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(closedYet).toBe(false);
      cancelled.next(task('T', 'canceled'));
      cancelled.complete();
      await closing;
    });
  }

  it('waits for a turn left before its task was named: the stream read on, then the CancelTask it starts', async () => {
    const stream = new Subject<AgentEvent>();
    const cancelled = new Subject<Task>();
    const port = createFakePort({ card: () => of(testCard()), stream: () => stream, cancel: () => cancelled });
    const client = createA2A({ identitySecret: SECRET, ports: () => port, policy: { cancelTimeoutMs: 5_000 } });
    client.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi', contextId: 'C' }).subscribe().unsubscribe();
    let closed = false;
    const closing = client.close().then(() => (closed = true));
    await Promise.resolve();
    stream.next(ev.task('T', 'working'));
    expect(port.calls.map((c) => c.method)).toEqual(['card', 'listTasks', 'stream', 'cancel']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toBe(false);
    cancelled.next(task('T', 'canceled'));
    cancelled.complete();
    await closing;
    expect(closed).toBe(true);
    expect(stream.observed).toBe(false);
  });
});

describe('continueInterrupted: false (replicas whose callers carry the question)', () => {
  it("a thread's next message does not continue the task this process saw left waiting: only the caller's task id does", async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: (message, n) =>
        n === 1 ? of(ev.task('Q', 'input-required', { message: 'Which city?', contextId: message.contextId! })) : of(ev.message('ok')),
      getTask: () => of(task('Q', 'input-required', { contextId: 'C' })),
    });
    const client = createA2A({ identitySecret: SECRET, ports: () => port, policy: { continueInterrupted: false } });
    const thread = { agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', contextId: 'C' };
    expect(endOf(await run(client.turn({ ...thread, text: 'ask' })))).toMatchObject({ outcome: 'input-required', taskId: 'Q' });
    await run(client.turn({ ...thread, text: 'something else' }));
    await run(client.turn({ ...thread, text: 'Paris', taskId: 'Q' }));
    expect(port.calls.flatMap((c) => (c.method === 'stream' ? [c.message.taskId ?? null] : []))).toEqual([null, null, 'Q']);
    expect(port.calls.filter((c) => c.method === 'listTasks')).toEqual([]);
  });
});
