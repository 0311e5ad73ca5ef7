/**
 * a4h-a2a/angular with `@angular/core` alone (no platform, no compiler): provideA2A in an environment
 * injector, injectA2A, and a2aConversation over the fake port, in an injection context.
 */
import { createEnvironmentInjector, Injector, PLATFORM_ID, runInInjectionContext, type EnvironmentInjector } from '@angular/core';
import { defer, delay, map, of, Subject, throwError, VirtualTimeScheduler } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { a2aConversation, injectA2A, provideA2A, type A2AConversation, type A2AConversationOptions } from '../src/angular/index.js';
import type { AgentEvent, AgentMessage, Task } from '../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../src/testing/index.js';

const SECRET = 'an angular test secret, 32 bytes';
const AGENT = 'http://127.0.0.1:1/';
const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let injector: EnvironmentInjector | undefined;
afterEach(() => {
  if (injector && !injector.destroyed) injector.destroy();
  injector = undefined;
});

/** A port whose n-th stream is `streams[n - 1]`, whose CancelTask answers at once. */
function portOf(...streams: Subject<AgentEvent>[]): FakePort {
  return createFakePort({
    card: () => of(testCard()),
    stream: (_message, n) => streams[n - 1]!,
    cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
  });
}

function conversation(port: FakePort, extra: Partial<A2AConversationOptions> = {}, server = false): A2AConversation {
  injector = createEnvironmentInjector(
    [provideA2A({ identitySecret: SECRET, ports: () => port }), ...(server ? [{ provide: PLATFORM_ID, useValue: 'server' }] : [])],
    Injector.create({ providers: [] }) as EnvironmentInjector,
  );
  return runInInjectionContext(injector, () => a2aConversation({ agent: AGENT, handle: 'h', thread: 't', ...extra }));
}

const methods = (port: FakePort) => port.calls.map((call) => call.method);
/** Waits for the port's n-th stream to be subscribed (the contextId is derived asynchronously first). */
const streaming = (port: FakePort, n = 1) => vi.waitFor(() => expect(methods(port).filter((m) => m === 'stream').length).toBe(n));

/** A conversation whose turn is streaming, its task `T` working. */
async function runningTask(): Promise<{ stream: Subject<AgentEvent>; port: FakePort; chat: A2AConversation }> {
  const stream = new Subject<AgentEvent>();
  const port = portOf(stream);
  const chat = conversation(port);
  chat.send('hi');
  await streaming(port);
  stream.next(ev.task('T', 'working'));
  return { stream, port, chat };
}

describe('provideA2A and injectA2A', () => {
  it('provide one client to the injector', () => {
    injector = createEnvironmentInjector(
      [provideA2A({ identitySecret: SECRET })],
      Injector.create({ providers: [] }) as EnvironmentInjector,
    );
    const client = runInInjectionContext(injector, injectA2A);
    expect(typeof client.turn).toBe('function');
    expect(runInInjectionContext(injector, injectA2A)).toBe(client);
  });
});

describe('a2aConversation', () => {
  it('the view signal follows a streamed reply', async () => {
    const stream = new Subject<AgentEvent>();
    const port = portOf(stream);
    const chat = conversation(port);
    expect(chat.view()).toBeUndefined();
    chat.send('hi');
    await streaming(port);
    expect(chat.view()).toMatchObject({ phase: 'running', reply: '' });
    stream.next(ev.task('T', 'working'));
    stream.next(ev.artifact('T', 'a', 'Hel'));
    expect(chat.view()).toMatchObject({ phase: 'running', reply: 'Hel', taskId: 'T' });
    stream.next(ev.artifact('T', 'a', 'lo', { append: true, lastChunk: true }));
    stream.next(ev.status('T', 'completed'));
    stream.complete();
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed', reply: 'Hello' });
  });

  it('a second send cancels the first turn: the agent gets CancelTask, the view shows the second', async () => {
    const first = new Subject<AgentEvent>();
    const second = new Subject<AgentEvent>();
    const port = portOf(first, second);
    const chat = conversation(port);
    chat.send('one');
    await streaming(port);
    first.next(ev.task('T1', 'working'));
    first.next(ev.artifact('T1', 'a', 'first'));
    chat.send('two');
    await streaming(port, 2);
    expect(first.observed).toBe(false);
    expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T1' });
    expect(chat.view()).toMatchObject({ phase: 'running', reply: '' });
    second.next(ev.task('T2', 'working'));
    second.next(ev.artifact('T2', 'a', 'second'));
    second.next(ev.status('T2', 'completed'));
    second.complete();
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed', reply: 'second', taskId: 'T2' });
  });

  it('fetches the contextId from the backend inside each turn, and sends it', async () => {
    let fetched = 0;
    const port = portOf(new Subject(), new Subject());
    const chat = conversation(port, { contextId: () => defer(() => of(`ctx-${++fetched}`)) });
    expect(fetched).toBe(0);
    chat.send('one');
    await flush();
    chat.send('two');
    await flush();
    expect(fetched).toBe(2);
    expect(port.calls.flatMap((call) => (call.method === 'stream' ? [call.message.contextId] : []))).toEqual(['ctx-1', 'ctx-2']);
  });

  it('a failed contextId fetch is the turn error, in the view (no throw on read)', async () => {
    const port = portOf();
    const chat = conversation(port, { contextId: () => throwError(() => new Error('backend down')) });
    chat.send('hi');
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'error' });
    expect(chat.view()?.error?.message).toMatch(/backend down/);
    expect(port.calls).toEqual([]);
  });

  it('cancel() cancels the running turn: CancelTask, and the view ends canceled', async () => {
    const { stream, port, chat } = await runningTask();
    stream.next(ev.status('T', 'working', 'thinking'));
    chat.cancel();
    await flush();
    expect(stream.observed).toBe(false);
    expect(methods(port)).toEqual(['card', 'listTasks', 'stream', 'cancel']);
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'canceled' });
    expect(chat.view()?.preview).toBeUndefined();
  });

  it('destroying the injection context unsubscribes the running turn (and cancels its task)', async () => {
    const { stream, port, chat } = await runningTask();
    injector!.destroy();
    await flush();
    expect(stream.observed).toBe(false);
    expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' });
    chat.send('after');
    await flush();
    expect(methods(port).filter((m) => m === 'stream')).toHaveLength(1);
  });

  it('on the server (PLATFORM_ID "server") send runs no turn', async () => {
    const port = portOf(new Subject());
    const chat = conversation(port, {}, true);
    chat.send('hi');
    await flush();
    expect(port.calls).toEqual([]);
    expect(chat.view()).toBeUndefined();
  });
});

describe('a2aConversation({ coalesceMs })', () => {
  /** A conversation coalescing over `clock` (virtual: `clock.flush()` ends the windows), its turn streaming, task T working. */
  async function coalescing(clock: VirtualTimeScheduler) {
    const stream = new Subject<AgentEvent>();
    const port = portOf(stream);
    const chat = conversation(port, { coalesceMs: 50, scheduler: clock });
    chat.send('hi');
    await streaming(port);
    stream.next(ev.task('T', 'working'));
    return { stream, port, chat };
  }

  it('the view shows the first view at once, the latest at the end of the window, and the end at once', async () => {
    const clock = new VirtualTimeScheduler();
    const { stream, chat } = await coalescing(clock);
    expect(chat.view()).toMatchObject({ phase: 'running', reply: '' });
    stream.next(ev.artifact('T', 'a', 'Hel'));
    stream.next(ev.artifact('T', 'a', 'lo', { append: true }));
    expect(chat.view()?.reply).toBe('');
    clock.flush();
    expect(chat.view()).toMatchObject({ phase: 'running', reply: 'Hello', taskId: 'T' });
    stream.next(ev.artifact('T', 'a', ', world', { append: true }));
    stream.next(ev.artifact('T', 'a', '!', { append: true, lastChunk: true }));
    expect(chat.view()?.reply).toBe('Hello, world');
    stream.next(ev.status('T', 'completed'));
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed', reply: 'Hello, world!' });
    clock.flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', reply: 'Hello, world!' });
  });

  it('cancel() with a view waiting in the window: the view stays canceled, nothing stale comes after', async () => {
    const clock = new VirtualTimeScheduler();
    const { stream, port, chat } = await coalescing(clock);
    stream.next(ev.artifact('T', 'a', 'Hel'));
    chat.cancel();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'canceled' });
    expect(clock.actions).toEqual([]); // the window's timer went with the turn
    clock.flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'canceled' });
    await flush();
    expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' });
  });
});

describe('a2aConversation resume()', () => {
  /** A port whose thread has `tasks` (ListTasks answers them), whose resubscribe is `resubscribed`, whose n-th stream is `streams[n - 1]`. */
  function resumablePort(tasks: Task[], resubscribed: Subject<AgentEvent>, ...streams: Subject<AgentEvent>[]): FakePort {
    // As a real agent does, its tasks and their events carry the conversation's contextId (the one listed).
    let context = '';
    const stamped = (event: AgentEvent): AgentEvent =>
      event.kind === 'task'
        ? { ...event, task: { ...event.task, contextId: context } }
        : 'taskId' in event
          ? { ...event, contextId: context }
          : event;
    return createFakePort({
      card: () => of(testCard()),
      listTasks: (contextId) => {
        context = contextId;
        return of({ tasks: tasks.map((listed) => ({ ...listed, contextId })) });
      },
      resubscribe: () => resubscribed.pipe(map(stamped)),
      stream: (_message, n) => streams[n - 1]!,
      cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
    });
  }
  const resubscribing = (port: FakePort) => vi.waitFor(() => expect(methods(port)).toContain('resubscribe'));

  it('a reply in flight becomes the view: what was said, then the rest, once; with the contextId of the option', async () => {
    const resubscribed = new Subject<AgentEvent>();
    const port = resumablePort([task('T', 'working')], resubscribed);
    const chat = conversation(port, { contextId: () => of('ctx-backend') });
    chat.resume();
    expect(chat.resuming()).toBe(true);
    await resubscribing(port);
    expect(chat.view()).toBeUndefined(); // nothing to show before the agent's task
    resubscribed.next(ev.task('T', 'working', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Hello, ' }] }] }));
    expect(chat.view()).toMatchObject({ phase: 'running', reply: 'Hello, ', taskId: 'T' });
    expect(chat.resuming()).toBe(false);
    resubscribed.next(ev.artifact('T', 'a', 'world', { append: true, lastChunk: true }));
    resubscribed.next(ev.status('T', 'completed'));
    resubscribed.complete();
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed', reply: 'Hello, world', taskId: 'T' });
    expect(port.calls).toContainEqual(expect.objectContaining({ method: 'listTasks', contextId: 'ctx-backend' }));
    expect(methods(port)).toEqual(['card', 'listTasks', 'card', 'resubscribe']);
  });

  it('nothing unfinished (outcome none) leaves the view as it was', async () => {
    const port = resumablePort([task('OLD', 'completed')], new Subject());
    const chat = conversation(port);
    chat.resume();
    await vi.waitFor(() => expect(chat.resuming()).toBe(false));
    expect(chat.view()).toBeUndefined();
    expect(methods(port)).toEqual(['card', 'listTasks']);
  });

  it('a failure to look (no ListTasks on a v0.3 agent, a failed contextId fetch) leaves the view as it was, without a throw', async () => {
    const { listTasks: _none, ...v03 } = createFakePort({ card: () => of(testCard({ protocolVersion: '0.3' })) });
    const chat = conversation(v03 as FakePort);
    chat.resume();
    await vi.waitFor(() => expect(chat.resuming()).toBe(false));
    expect(chat.view()).toBeUndefined();

    const other = resumablePort([task('T', 'working')], new Subject());
    const failing = conversation(other, { contextId: () => throwError(() => new Error('backend down')) });
    failing.resume();
    await vi.waitFor(() => expect(failing.resuming()).toBe(false));
    expect(failing.view()).toBeUndefined();
    expect(other.calls).toEqual([]);
  });

  it("the agent's question shows as the view, and the next send answers it in its task", async () => {
    const question = new Subject<AgentEvent>();
    const answer = new Subject<AgentEvent>();
    const port = resumablePort([task('Q', 'input-required', { message: 'Which city?' })], question, answer);
    const chat = conversation(port);
    chat.resume();
    await resubscribing(port);
    question.next(ev.task('Q', 'input-required', { message: 'Which city?' }));
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'input-required', reply: 'Which city?', taskId: 'Q' });
    chat.send('Paris');
    await streaming(port);
    const sent = port.calls.find((call) => call.method === 'stream');
    expect(sent).toMatchObject({ message: { taskId: 'Q' } });
    expect(chat.view()).toMatchObject({ phase: 'running', reply: '' });
  });

  it('cancel() and a send cancel a resumed reply like any turn (CancelTask)', async () => {
    const resubscribed = new Subject<AgentEvent>();
    const port = resumablePort([task('T', 'working')], resubscribed);
    const chat = conversation(port);
    chat.resume();
    await resubscribing(port);
    resubscribed.next(ev.task('T', 'working'));
    chat.cancel();
    await flush();
    expect(resubscribed.observed).toBe(false);
    expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' });
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'canceled', taskId: 'T' });

    const again = new Subject<AgentEvent>();
    const next = resumablePort([task('U', 'working')], again, new Subject());
    const superseded = conversation(next);
    superseded.resume();
    await resubscribing(next);
    again.next(ev.task('U', 'working'));
    superseded.send('something else');
    await streaming(next);
    expect(again.observed).toBe(false);
    expect(next.calls).toContainEqual({ method: 'cancel', taskId: 'U' });
  });

  it('with coalesceMs: a resumed reply shows at once when its task is known, then is coalesced', async () => {
    const clock = new VirtualTimeScheduler();
    const resubscribed = new Subject<AgentEvent>();
    const port = resumablePort([task('T', 'working')], resubscribed);
    const chat = conversation(port, { coalesceMs: 50, scheduler: clock });
    chat.resume();
    await resubscribing(port);
    resubscribed.next(ev.task('T', 'working', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Hel' }] }] }));
    // The first view with the task at once (the snapshot's text follows in the same window).
    expect(chat.view()).toMatchObject({ phase: 'running', taskId: 'T' });
    expect(chat.resuming()).toBe(false);
    resubscribed.next(ev.artifact('T', 'a', 'lo', { append: true }));
    expect(chat.view()?.reply).not.toBe('Hello');
    clock.flush();
    expect(chat.view()?.reply).toBe('Hello');
  });

  it('on the server (PLATFORM_ID "server") resume looks for nothing', async () => {
    const port = resumablePort([task('T', 'working')], new Subject());
    const chat = conversation(port, {}, true);
    chat.resume();
    await flush();
    expect(port.calls).toEqual([]);
    expect(chat.view()).toBeUndefined();
    expect(chat.resuming()).toBe(false);
  });
});

describe('a2aConversation history and loadEarlier()', () => {
  const said = (text: string): AgentMessage => ({ role: 'user', parts: [{ kind: 'text', text }], messageId: `m-${text}` });
  /** A task of the thread as ListTasks lists it: the person's message in its history, the reply an artifact. */
  const listed = (id: string, state: Task['status']['state'], reply: string): Task => ({
    ...task(id, state, { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: reply }] }] }),
    history: [said(`to ${id}`)],
  });
  /**
   * A port whose ListTasks answers `pages` in turn (newest task first, as agents list them), a macrotask
   * later as over the network; its resubscribe is `resubscribed`. As a real agent's, its tasks and the
   * resumed task's snapshots carry the conversation's contextId (the one listed).
   */
  function listingPort(pages: { tasks: Task[]; nextPageToken?: string }[], resubscribed = new Subject<AgentEvent>()): FakePort {
    let context = '';
    return createFakePort({
      card: () => of(testCard()),
      listTasks: (contextId, n) => {
        context = contextId;
        const { tasks, nextPageToken } = pages[Math.min(n, pages.length) - 1]!;
        const page = { tasks: tasks.map((listed) => ({ ...listed, contextId })), ...(nextPageToken ? { nextPageToken } : {}) };
        return of(page).pipe(delay(1));
      },
      resubscribe: () =>
        resubscribed.pipe(map((event) => (event.kind === 'task' ? { ...event, task: { ...event.task, contextId: context } } : event))),
      cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
    });
  }
  const shown = (chat: A2AConversation) => chat.history().map((exchange) => [exchange.user[0]?.text, exchange.reply, exchange.outcome]);
  const listings = (port: FakePort) => port.calls.filter((call) => call.method === 'listTasks');

  it('loads the newest page first, then each earlier page above it, oldest first; one load at a time; no more after the oldest', async () => {
    const port = listingPort([
      {
        tasks: [listed('T5', 'completed', 'five'), listed('T4', 'completed', 'four'), listed('T3', 'completed', 'three')],
        nextPageToken: 'p2',
      },
      { tasks: [listed('T2', 'completed', 'two'), listed('T1', 'failed', 'one')] },
    ]);
    const chat = conversation(port, { historyLimit: 3, contextId: () => of('ctx-backend') });
    expect([chat.history(), chat.hasEarlier(), chat.loadingHistory()]).toEqual([[], false, false]);
    chat.loadEarlier();
    chat.loadEarlier(); // while the first page loads: nothing more
    expect(chat.loadingHistory()).toBe(true);
    await vi.waitFor(() => expect(chat.loadingHistory()).toBe(false));
    expect(shown(chat)).toEqual([
      ['to T3', 'three', 'completed'],
      ['to T4', 'four', 'completed'],
      ['to T5', 'five', 'completed'],
    ]);
    expect(chat.hasEarlier()).toBe(true);
    expect(listings(port)).toEqual([{ method: 'listTasks', contextId: 'ctx-backend', options: expect.objectContaining({ pageSize: 3 }) }]);

    chat.loadEarlier();
    await vi.waitFor(() => expect(chat.history()).toHaveLength(5));
    expect(shown(chat).map(([text]) => text)).toEqual(['to T1', 'to T2', 'to T3', 'to T4', 'to T5']);
    expect(chat.history()[0]).toMatchObject({ taskId: 'T1', outcome: 'failed' });
    expect(listings(port)[1]).toMatchObject({ options: { pageToken: 'p2' } });
    expect(chat.hasEarlier()).toBe(false);
    chat.loadEarlier(); // the oldest page is shown
    await flush();
    expect(listings(port)).toHaveLength(2);
    expect(chat.historyError()).toBeUndefined();
  });

  it("nothing doubled: the reply in flight (which the agent lists too) shows in view only; history waits for resume()'s look", async () => {
    const resubscribed = new Subject<AgentEvent>();
    const tasks = [listed('T2', 'working', 'Once upon'), listed('T1', 'completed', 'First answer')];
    const port = listingPort([{ tasks }], resubscribed);
    const chat = conversation(port);
    chat.loadEarlier();
    chat.resume();
    await vi.waitFor(() => expect(methods(port)).toContain('resubscribe'));
    await vi.waitFor(() => expect(chat.loadingHistory()).toBe(false));
    expect(chat.history()).toEqual([]); // still looking: the running task could show twice
    resubscribed.next(ev.task('T2', 'working', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Once upon a time' }] }] }));
    expect(chat.resuming()).toBe(false);
    expect(shown(chat)).toEqual([['to T1', 'First answer', 'completed']]);
    expect(chat.view()).toMatchObject({ taskId: 'T2', reply: 'Once upon a time' });
    resubscribed.next(ev.status('T2', 'completed'));
    resubscribed.complete();
    await flush();
    expect(shown(chat)).toHaveLength(1);
    expect(methods(port)).not.toContain('cancel');
  });

  it('a v0.3 agent (no ListTasks) or a failed contextId fetch: historyError says why, history stays empty, no throw', async () => {
    const { listTasks: _none, ...v03 } = createFakePort({ card: () => of(testCard({ protocolVersion: '0.3' })) });
    const chat = conversation(v03 as FakePort);
    chat.loadEarlier();
    await vi.waitFor(() => expect(chat.historyError()).toBeDefined());
    expect(chat.historyError()?.kind).toBe('unsupported');
    expect([chat.history(), chat.hasEarlier(), chat.loadingHistory()]).toEqual([[], false, false]);

    const port = listingPort([{ tasks: [listed('T1', 'completed', 'one')] }]);
    const failing = conversation(port, { contextId: () => throwError(() => new Error('backend down')) });
    failing.loadEarlier();
    await vi.waitFor(() => expect(failing.historyError()?.message).toMatch(/backend down/));
    expect(failing.history()).toEqual([]);
    expect(port.calls).toEqual([]);
  });

  it('on the server (PLATFORM_ID "server") loadEarlier asks nothing', async () => {
    const port = listingPort([{ tasks: [listed('T1', 'completed', 'one')] }]);
    const chat = conversation(port, {}, true);
    chat.loadEarlier();
    await flush();
    expect(port.calls).toEqual([]);
    expect(chat.loadingHistory()).toBe(false);
  });
});
