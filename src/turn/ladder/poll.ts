import {
  catchError,
  concat,
  defer,
  EMPTY,
  ignoreElements,
  map,
  repeat,
  retry,
  takeWhile,
  tap,
  throwError,
  timer,
  type Observable,
} from 'rxjs';
import { isA2AError, timeoutError } from '../../errors.js';
import type { GenerationWait } from '../../port/port.js';
import type { AgentEvent, Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { backoffDelay } from '../policy.js';
import { watchdog } from '../../rx/watchdog.js';
import { within } from '../within.js';

/**
 * A2A 1.1 (draft): a `GetTask` held until the task passes the last generation the turn saw, when the
 * agent sends generations and the policy allows long-polls; else undefined (a plain `GetTask`).
 */
function longPoll(ctx: LadderContext): GenerationWait | undefined {
  const current = ctx.task.generations.current;
  return current === undefined || ctx.policy.poll.longPollMs === 0 ? undefined : { currentGeneration: current };
}

/** Messages of history a resumed turn's first `GetTask` asks for: enough to hold the person's newest message. */
export const REQUEST_HISTORY = 10;

/**
 * Polls `GetTask` with backoff until the task is terminal or interrupted. Each snapshot replaces
 * the turn's state. A request that fails retryably is tried again (up to `poll.maxErrors` in a
 * row); a task that shows no change for `poll.staleAfterMs` ends the turn with a `stale` timeout,
 * for servers whose task stays "working" forever.
 *
 * With an agent that sends generations (A2A 1.1 draft), each `GetTask` is a long-poll
 * (`currentGeneration`: the last the turn saw, held up to `poll.longPollMs`); one the agent answers
 * with a later generation is followed by the next at once, any other by the usual backoff, so an agent
 * that answers at once is not asked in a loop.
 *
 * `afterDelay` waits one poll interval first (the agent has only just answered). A resumed turn
 * that has seen no snapshot of its task yet asks the first for {@link REQUEST_HISTORY} messages of
 * history (`TurnTask.wantsRequest`); every other `GetTask` asks for the fewest the protocol allows.
 */
export function pollUntilSettled(ctx: LadderContext, taskId: string, afterDelay: boolean): Observable<AgentEvent> {
  const { poll } = ctx.policy;
  /** The last request was a long-poll the agent answered with a later generation: the next goes at once. */
  let moved = false;
  // A resumed turn's first snapshot asks for history: the person's message its task answers (`request`).
  const getOnce$ = defer(() => {
    moved = false;
    const wait = longPoll(ctx);
    const asked$ = ctx.port.getTask(taskId, ctx.task.wantsRequest ? REQUEST_HISTORY : undefined, wait);
    return asked$.pipe(
      within<Task>(poll.requestTimeoutMs + (wait === undefined ? 0 : poll.longPollMs), 'poll-request', 'get-task'),
      tap((task) => (moved = wait !== undefined && (task.generation ?? 0) > wait.currentGeneration)),
      // A hold longer than the client waits is the agent's answer that nothing moved, not a failure.
      catchError((error: unknown) =>
        wait !== undefined && isA2AError(error, 'timeout') && error.phase === 'poll-request' ? EMPTY : throwError(() => error),
      ),
    );
  }).pipe(
    retry({
      count: poll.maxErrors,
      delay: (error: unknown, attempt) =>
        isA2AError(error) && error.retryable ? timer(backoffDelay(poll, attempt, ctx.random)) : throwError(() => error),
    }),
  );
  const polls$ = defer(() => {
    let seen: string | undefined;
    return getOnce$.pipe(
      // After a long-poll the agent held until the task moved, the next asks at once; anything else waits its
      // backoff (an agent that answers a long-poll at once, as a 1.0 one does, is polled at the usual pace).
      repeat({ delay: (count) => timer(moved ? 0 : backoffDelay(poll, count, ctx.random)) }),
      watchdog({
        first: poll.staleAfterMs,
        each: (task) => {
          const fingerprint = JSON.stringify([task.status, task.artifacts]);
          if (fingerprint === seen) return 'keep';
          seen = fingerprint;
          return poll.staleAfterMs;
        },
        expired: () => timeoutError('stale', poll.staleAfterMs, 'get-task'),
      }),
      takeWhile(() => !ctx.task.settled, true),
      map((task): AgentEvent => ({ kind: 'task', task })),
    );
  });
  if (!afterDelay) return polls$;
  return concat(timer(backoffDelay(poll, 1, ctx.random)).pipe(ignoreElements()), polls$);
}
