/** a4h-a2a/angular with `@angular/core` alone (no platform, no compiler): provideA2A in an environment injector,
 * injectA2A, and a2aConversation over the fake port, in an injection context (the kit: angular-kit.ts). */
import { createEnvironmentInjector, Injector, runInInjectionContext, type EnvironmentInjector } from '@angular/core';
import { defer, of, Subject, throwError, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { injectA2A, provideA2A } from '../../src/angular/index.js';
import type { AgentEvent } from '../../src/port/types.js';
import { ev } from '../../src/testing/index.js';
import {
  SECRET,
  flush,
  keepInjector,
  madeInjector,
  portOf,
  conversation,
  methods,
  streaming,
  runningTask,
  useInjectorCleanup,
} from './angular-kit.js';

useInjectorCleanup();

describe('provideA2A and injectA2A', () => {
  it('provide one client to the injector', () => {
    const injector = keepInjector(
      createEnvironmentInjector([provideA2A({ identitySecret: SECRET })], Injector.create({ providers: [] }) as EnvironmentInjector),
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
    madeInjector()!.destroy();
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
