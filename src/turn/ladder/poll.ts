import { concat, defer, ignoreElements, map, repeat, retry, takeWhile, throwError, timer, type Observable } from 'rxjs';
import { isA2AError, timeoutError } from '../../errors.js';
import type { AgentEvent, Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { backoffDelay } from '../policy.js';
import { watchdog } from '../../rx/watchdog.js';
import { within } from '../within.js';

/** Messages of history a resumed turn's first `GetTask` asks for: enough to hold the person's newest message. */
export const REQUEST_HISTORY = 10;

/**
 * Polls `GetTask` with backoff until the task is terminal or interrupted. Each snapshot replaces
 * the turn's state. A request that fails retryably is tried again (up to `poll.maxErrors` in a
 * row); a task that shows no change for `poll.staleAfterMs` ends the turn with a `stale` timeout,
 * for servers whose task stays "working" forever.
 *
 * `afterDelay` waits one poll interval first (the agent has only just answered). A resumed turn
 * that has seen no snapshot of its task yet asks the first for {@link REQUEST_HISTORY} messages of
 * history (`TurnTask.wantsRequest`); every other `GetTask` asks for the fewest the protocol allows.
 */
export function pollUntilSettled(ctx: LadderContext, taskId: string, afterDelay: boolean): Observable<AgentEvent> {
  const { poll } = ctx.policy;
  // A resumed turn's first snapshot asks for history: the person's message its task answers (`request`).
  const getOnce$ = defer(() => ctx.port.getTask(taskId, ctx.task.wantsRequest ? REQUEST_HISTORY : undefined)).pipe(
    within<Task>(poll.requestTimeoutMs, 'poll-request', 'get-task'),
    retry({
      count: poll.maxErrors,
      delay: (error: unknown, attempt) =>
        isA2AError(error) && error.retryable ? timer(backoffDelay(poll, attempt, ctx.random)) : throwError(() => error),
    }),
  );
  const polls$ = defer(() => {
    let seen: string | undefined;
    return getOnce$.pipe(
      repeat({ delay: (count) => timer(backoffDelay(poll, count, ctx.random)) }),
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
