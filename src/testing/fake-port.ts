import { defer, throwError, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import type { A2APort, ListTasksOptions, TaskPage, GenerationWait } from '../port/port.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../port/types.js';
import type { CardSummary } from '../port/card.js';

/** One call the fake port received. */
export type FakePortCall =
  | { method: 'card' }
  | { method: 'send' | 'stream'; message: OutgoingMessage }
  | { method: 'resubscribe' | 'cancel'; taskId: string }
  | { method: 'getTask'; taskId: string; historyLength?: number; wait?: GenerationWait }
  | { method: 'listTasks'; contextId: string; options?: ListTasksOptions };

/**
 * What each call of a fake port answers. Each function gets the call's argument and the call's
 * number for that method (1-based), so a test can answer the second resubscribe differently.
 */
export interface FakePortScript {
  /** Answers `card()`: the agent card's summary. */
  card?: (call: number) => Observable<CardSummary>;
  /** Answers a blocking send. */
  send?: (message: OutgoingMessage, call: number) => Observable<SendResult>;
  /** Answers a streaming send: the agent's events. */
  stream?: (message: OutgoingMessage, call: number) => Observable<AgentEvent>;
  /** Answers a resubscribe to a task's stream. */
  resubscribe?: (taskId: string, call: number) => Observable<AgentEvent>;
  /** Answers a GetTask. */
  getTask?: (taskId: string, call: number) => Observable<Task>;
  /** Answers a CancelTask. */
  cancel?: (taskId: string, call: number) => Observable<Task>;
  /** Answers a ListTasks of a conversation: one page (its options, such as `pageToken`, are in the recorded call). */
  listTasks?: (contextId: string, call: number) => Observable<TaskPage>;
}

/** A port whose calls are scripted by the test (e.g. with `cold()` diagrams) and recorded in `calls`. */
export interface FakePort extends A2APort {
  /** Every call, in the order subscribed. */
  readonly calls: FakePortCall[];
}

/**
 * A fake {@link a4h-a2a#A2APort} for tests of code built on the ladder. Each method is cold: the script is
 * asked, and the call recorded, when the Observable is subscribed. An unscripted method errors.
 */
export function createFakePort(script: FakePortScript): FakePort {
  const calls: FakePortCall[] = [];
  const counts = new Map<string, number>();
  /** Records the call and asks the script when subscribed; an unscripted method errors. */
  const answer = <A, T>(call: FakePortCall, arg: A, scripted: ((arg: A, n: number) => Observable<T>) | undefined): Observable<T> =>
    defer(() => {
      calls.push(call);
      const n = (counts.get(call.method) ?? 0) + 1;
      counts.set(call.method, n);
      if (scripted) return scripted(arg, n);
      return throwError(() => new A2AError({ kind: 'protocol', message: `the fake port has no script for ${call.method}` }));
    });
  const card = script.card;

  return {
    calls,
    card: () => answer({ method: 'card' }, undefined, card && ((_: undefined, n: number) => card(n))),
    send: (message) => answer({ method: 'send', message }, message, script.send),
    stream: (message) => answer({ method: 'stream', message }, message, script.stream),
    resubscribe: (taskId) => answer({ method: 'resubscribe', taskId }, taskId, script.resubscribe),
    getTask: (taskId, historyLength, wait) =>
      answer(
        {
          method: 'getTask',
          taskId,
          ...(historyLength === undefined ? {} : { historyLength }),
          ...(wait === undefined ? {} : { wait }),
        },
        taskId,
        script.getTask,
      ),
    cancel: (taskId) => answer({ method: 'cancel', taskId }, taskId, script.cancel),
    listTasks: (contextId, options) =>
      answer(
        options === undefined ? { method: 'listTasks', contextId } : { method: 'listTasks', contextId, options },
        contextId,
        script.listTasks,
      ),
  };
}

/** Answers the n-th call with the n-th Observable (the last one repeats): `resubscribe: callByCall(r1, r2)`. */
export function callByCall<T>(...answers: Observable<T>[]): (arg: unknown, call: number) => Observable<T> {
  return (_arg, call) => answers[Math.min(call, answers.length) - 1]!;
}
