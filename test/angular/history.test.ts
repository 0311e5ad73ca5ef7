/** a2aConversation's history and loadEarlier() over the fake port (the kit: angular-kit.ts). */
import { delay, map, of, Subject, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { type A2AConversation } from '../../src/angular/index.js';
import type { AgentEvent, AgentMessage, Task } from '../../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { flush, conversation, methods, useInjectorCleanup } from './angular-kit.js';

useInjectorCleanup();

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
