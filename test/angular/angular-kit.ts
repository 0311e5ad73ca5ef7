/**
 * The Angular tests' kit: a2aConversation over the fake port in an environment injector (destroyed after each
 * test: useInjectorCleanup), a port whose n-th stream a test drives, and a conversation with a running task.
 */
import { createEnvironmentInjector, Injector, PLATFORM_ID, runInInjectionContext, type EnvironmentInjector } from '@angular/core';
import { of, Subject } from 'rxjs';
import { afterEach, expect, vi } from 'vitest';
import { a2aConversation, provideA2A, type A2AConversation, type A2AConversationOptions } from '../../src/angular/index.js';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';

/** The identity secret of every conversation. */
export const SECRET = 'an angular test secret, 32 bytes';
/** An agent URL nothing answers at: the fake port stands in for it. */
export const AGENT = 'http://127.0.0.1:1/';
/** Resolves after the timers due now. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

let injector: EnvironmentInjector | undefined;

/** Keeps `made` as the test's injector, destroyed after the test (useInjectorCleanup). */
export function keepInjector(made: EnvironmentInjector): EnvironmentInjector {
  injector = made;
  return made;
}

/** The injector the test made last, if any. */
export const madeInjector = (): EnvironmentInjector | undefined => injector;

/** A port whose n-th stream is `streams[n - 1]`, whose CancelTask answers at once. */
export function portOf(...streams: Subject<AgentEvent>[]): FakePort {
  return createFakePort({
    card: () => of(testCard()),
    stream: (_message, n) => streams[n - 1]!,
    cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
  });
}

/** A conversation over `port` in a fresh environment injector (`server`: on the server platform). */
export function conversation(port: FakePort, extra: Partial<A2AConversationOptions> = {}, server = false): A2AConversation {
  injector = createEnvironmentInjector(
    [provideA2A({ identitySecret: SECRET, ports: () => port }), ...(server ? [{ provide: PLATFORM_ID, useValue: 'server' }] : [])],
    Injector.create({ providers: [] }) as EnvironmentInjector,
  );
  return runInInjectionContext(injector, () => a2aConversation({ agent: AGENT, handle: 'h', thread: 't', ...extra }));
}

/** The port's calls, by method. */
export const methods = (port: FakePort) => port.calls.map((call) => call.method);
/** Waits for the port's n-th stream to be subscribed (the contextId is derived asynchronously first). */
export const streaming = (port: FakePort, n = 1) => vi.waitFor(() => expect(methods(port).filter((m) => m === 'stream').length).toBe(n));

/** A conversation whose turn is streaming, its task `T` working. */
export async function runningTask(): Promise<{ stream: Subject<AgentEvent>; port: FakePort; chat: A2AConversation }> {
  const stream = new Subject<AgentEvent>();
  const port = portOf(stream);
  const chat = conversation(port);
  chat.send('hi');
  await streaming(port);
  stream.next(ev.task('T', 'working'));
  return { stream, port, chat };
}

/** Destroys the injector a test made, after it. */
export function useInjectorCleanup(): void {
  afterEach(() => {
    if (injector && !injector.destroyed) injector.destroy();
    injector = undefined;
  });
}
