import { defer, throwError, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import type { A2APort } from '../port/port.js';
import type { AgentEvent, CardSummary, OutgoingMessage, SendResult, Task } from '../port/types.js';

/** One call the fake port received. */
export type FakePortCall =
  | { method: 'card' }
  | { method: 'send' | 'stream'; message: OutgoingMessage }
  | { method: 'resubscribe' | 'getTask' | 'cancel'; taskId: string };

/**
 * What each call of a fake port answers. Each function gets the call's argument and the call's
 * number for that method (1-based), so a test can answer the second resubscribe differently.
 */
export interface FakePortScript {
  card?: (call: number) => Observable<CardSummary>;
  send?: (message: OutgoingMessage, call: number) => Observable<SendResult>;
  stream?: (message: OutgoingMessage, call: number) => Observable<AgentEvent>;
  resubscribe?: (taskId: string, call: number) => Observable<AgentEvent>;
  getTask?: (taskId: string, call: number) => Observable<Task>;
  cancel?: (taskId: string, call: number) => Observable<Task>;
}

/** A port whose calls are scripted by the test (e.g. with `cold()` diagrams) and recorded in `calls`. */
export interface FakePort extends A2APort {
  readonly calls: FakePortCall[];
}

/**
 * A fake {@link A2APort} for tests of code built on the ladder. Each method is cold: the script is
 * asked, and the call recorded, when the Observable is subscribed. An unscripted method errors.
 */
export function createFakePort(script: FakePortScript): FakePort {
  const calls: FakePortCall[] = [];
  const counts = new Map<string, number>();
  const next = (method: string): number => {
    const n = (counts.get(method) ?? 0) + 1;
    counts.set(method, n);
    return n;
  };
  const missing = (method: string) =>
    throwError(() => new A2AError({ kind: 'protocol', message: `the fake port has no script for ${method}` }));

  return {
    calls,
    card: () =>
      defer(() => {
        calls.push({ method: 'card' });
        return script.card?.(next('card')) ?? missing('card');
      }),
    send: (message) =>
      defer(() => {
        calls.push({ method: 'send', message });
        return script.send?.(message, next('send')) ?? missing('send');
      }),
    stream: (message) =>
      defer(() => {
        calls.push({ method: 'stream', message });
        return script.stream?.(message, next('stream')) ?? missing('stream');
      }),
    resubscribe: (taskId) =>
      defer(() => {
        calls.push({ method: 'resubscribe', taskId });
        return script.resubscribe?.(taskId, next('resubscribe')) ?? missing('resubscribe');
      }),
    getTask: (taskId) =>
      defer(() => {
        calls.push({ method: 'getTask', taskId });
        return script.getTask?.(taskId, next('getTask')) ?? missing('getTask');
      }),
    cancel: (taskId) =>
      defer(() => {
        calls.push({ method: 'cancel', taskId });
        return script.cancel?.(taskId, next('cancel')) ?? missing('cancel');
      }),
  };
}

/** Answers the n-th call with the n-th Observable (the last one repeats): `resubscribe: callByCall(r1, r2)`. */
export function callByCall<T>(...answers: Observable<T>[]): (arg: unknown, call: number) => Observable<T> {
  return (_arg, call) => answers[Math.min(call, answers.length) - 1]!;
}
