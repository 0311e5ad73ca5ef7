import {
  catchError,
  concat,
  defer,
  EMPTY,
  filter,
  map,
  Observable,
  of,
  repeat,
  retry,
  switchMap,
  take,
  takeWhile,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
} from 'rxjs';
import { isA2AError, timeoutError } from '../../errors.js';
import type { A2APort } from '../../port/port.js';
import { isSettled, type AgentEvent, type Task } from '../../port/types.js';
import { backoffDelay, type Backoff } from '../policy.js';
import { within } from '../within.js';

/** How {@link waitForTask} waits. */
export interface TaskWait {
  /** The first delay between two `GetTask`s, in milliseconds (the A2A CLI specification's `--poll-interval`; 2000 there). */
  pollIntervalMs: number;
  /** The longest delay the backoff grows to; at least `pollIntervalMs`. */
  maxPollIntervalMs: number;
  /** The whole wait's bound: a `timeout` error (phase `turn`, operation `get-task`) when it runs out. */
  timeoutMs: number;
  /** Each request's own bound. */
  requestTimeoutMs: number;
  /** Follow the task's stream (`SubscribeToTask`) when the card offers streaming, polling only when it fails or ends early. */
  preferStream: boolean;
  /** Messages of history each snapshot asks for (the fewest the protocol allows when absent). */
  historyLength?: number;
  /** Retryable failures of `GetTask` tried again in a row before the wait fails. Default 3. */
  maxErrors?: number;
  /** The backoff's randomness, in [0, 1); tests pass a fixed one. Default `Math.random`. */
  random?: () => number;
}

/** A state a wait ends at: terminal or interrupted (input or auth required). `unknown` (UNSPECIFIED) is neither. */
const settles = (task: Task): boolean => isSettled(task.status.state);

/** The state an event says the task is in, when it says one. */
function stateOf(event: AgentEvent): Task['status']['state'] | undefined {
  if (event.kind === 'task') return event.task.status.state;
  if (event.kind === 'status') return event.status.state;
  return undefined;
}

/**
 * Waits for a task to settle: its `GetTask` snapshots, the last of them terminal or interrupted
 * (`input-required`, `auth-required`), then complete. With `preferStream` and a card that says
 * streaming, the task's stream (`SubscribeToTask`) is followed until it says the task settled, and one
 * `GetTask` then reads the whole task; a stream that fails or ends before that falls back to polling,
 * which is also the way without streaming. Polls start at `pollIntervalMs` and back off to
 * `maxPollIntervalMs` (never a busy loop); a task in `unknown` (UNSPECIFIED) is polled on. A
 * `task-not-found` or `auth` error ends the wait at once; `timeoutMs` bounds all of it.
 */
export function waitForTask(port: A2APort, taskId: string, wait: TaskWait): Observable<Task> {
  const random = wait.random ?? Math.random;
  const backoff: Backoff = {
    initialDelayMs: wait.pollIntervalMs,
    factor: 1.5,
    maxDelayMs: Math.max(wait.pollIntervalMs, wait.maxPollIntervalMs),
    jitter: 0,
  };
  const getOnce$ = defer(() => port.getTask(taskId, wait.historyLength)).pipe(
    within<Task>(wait.requestTimeoutMs, 'poll-request', 'get-task'),
    retry({
      count: wait.maxErrors ?? 3,
      delay: (error: unknown, attempt) =>
        isA2AError(error) && error.retryable ? timer(backoffDelay(backoff, attempt, random)) : throwError(() => error),
    }),
  );
  const polls$ = getOnce$.pipe(
    repeat({ delay: (count) => timer(backoffDelay(backoff, count, random)) }),
    takeWhile((task) => !settles(task), true),
  );
  const streamed$ = port.card().pipe(
    within(wait.requestTimeoutMs, 'card', 'card'),
    switchMap((card) => (card.streaming ? settledOnStream(port, taskId) : of(false))),
    catchError((error: unknown) => (isA2AError(error, 'task-not-found', 'auth') ? throwError(() => error) : of(false))),
  );
  // After the stream said "settled": the whole task, read once; else polling from the start.
  const viaStream$ = streamed$.pipe(
    switchMap((settled) => (settled ? getOnce$.pipe(switchMap((task) => (settles(task) ? [task] : polls$))) : polls$)),
  );
  const all$ = wait.preferStream ? viaStream$ : polls$;
  return all$.pipe(bounded(wait.timeoutMs));
}

/** Follows the task's stream: `true` once it says the task settled, `false` when it ends (or fails) before. */
function settledOnStream(port: A2APort, taskId: string): Observable<boolean> {
  return concat(
    port.resubscribe(taskId).pipe(
      filter((event) => {
        const state = stateOf(event);
        return state !== undefined && isSettled(state);
      }),
      take(1),
      map(() => true),
      catchError((error: unknown) => (isA2AError(error, 'task-not-found', 'auth') ? throwError(() => error) : EMPTY)),
    ),
    [false],
  ).pipe(take(1));
}

/** The whole of `source` within `ms`: past it, a `timeout` error (phase `turn`) and `source` is left. */
function bounded<T>(ms: number): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const clock = timer(ms).subscribe(() => subscriber.error(timeoutError('turn', ms, 'get-task')));
      const inner = source.subscribe(subscriber);
      return () => {
        clock.unsubscribe();
        inner.unsubscribe();
      };
    });
}
