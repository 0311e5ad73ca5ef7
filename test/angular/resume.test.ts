/** a2aConversation resume() over the fake port (the kit: angular-kit.ts). */
import { map, of, Subject, throwError, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { flush, conversation, methods, streaming, useInjectorCleanup } from './angular-kit.js';
import { withContext } from '../fake-events.js';

useInjectorCleanup();

describe('a2aConversation resume()', () => {
  /** A port whose thread has `tasks` (ListTasks answers them), whose resubscribe is `resubscribed`, whose n-th stream is `streams[n - 1]`. */
  function resumablePort(tasks: Task[], resubscribed: Subject<AgentEvent>, ...streams: Subject<AgentEvent>[]): FakePort {
    // As a real agent does, its tasks and their events carry the conversation's contextId (the one listed).
    let context = '';
    const stamped = (event: AgentEvent): AgentEvent => withContext(event, context);
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
