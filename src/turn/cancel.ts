import { finalize, Observable, timer, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { toA2AError } from '../errors.js';
import type { Task } from '../port/types.js';
import type { LadderContext } from './context.js';
import { within } from './watchdog.js';

/**
 * When the turn ends for any reason (unsubscribe, deadline, error) while the agent's task is known
 * and not settled, sends `CancelTask` once (not to a task the agent just said it does not know).
 * An aborted stream alone does not stop the agent's work.
 */
export function cancelWhenAbandoned<T>(ctx: LadderContext): MonoTypeOperatorFunction<T> {
  return finalize(() => cancelTask(ctx));
}

/**
 * The turn's first request (the streaming or the blocking send), read on in the background when the
 * turn is left before the agent named its task — a gateway's `switchMap` does that to every
 * superseded message — so that task can still be cancelled: until the task id arrives (then
 * `CancelTask`), the request ends, or `cancelTimeoutMs` passes. `close()` waits for it too.
 */
export function cancelWhenNamed<T>(ctx: LadderContext): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let background: Subscription | undefined;
      // The request ended (failed or completed): nothing is left to read on. (`upstream.closed` is
      // still false while its error or completion is being delivered, which is when this teardown runs.)
      let ended = false;
      const stop = (): void => {
        upstream.unsubscribe();
        background?.unsubscribe();
        cancelTask(ctx);
      };
      const upstream = source.subscribe({
        next: (value) => {
          if (!background) subscriber.next(value);
          else if (ctx.task.taskId !== undefined || ctx.task.settled) stop();
        },
        error: (error: unknown) => {
          ended = true;
          return background ? stop() : subscriber.error(error);
        },
        complete: () => {
          ended = true;
          return background ? stop() : subscriber.complete();
        },
      });
      return () => {
        if (ended || upstream.closed || ctx.task.taskId !== undefined || ctx.task.settled || ctx.detached?.())
          return upstream.unsubscribe();
        ctx.logger.debug({}, 'the turn was left before the agent named its task: reading on to cancel it');
        background = timer(ctx.policy.cancelTimeoutMs).subscribe(stop);
        ctx.onCancel?.(background);
      };
    });
}

/**
 * Sends `CancelTask` once for the turn's task, if it is known, unsettled and not disowned. The
 * cancel is its own bounded request, subscribed by nothing a teardown reaches, so it outlives the
 * turn. Its failure is logged, never thrown.
 */
function cancelTask(ctx: LadderContext): void {
  const { taskId } = ctx.task;
  // A host handing its turns over leaves their tasks running for another process to resume.
  if (taskId === undefined || ctx.detached?.() || !ctx.task.claimCancel()) return;
  ctx.logger.debug({ taskId }, 'cancelling the abandoned task');
  const cancel = ctx.port
    .cancel(taskId)
    .pipe(within<Task>(ctx.policy.cancelTimeoutMs, 'cancel', 'cancel'))
    .subscribe({
      next: (task) => ctx.logger.debug({ taskId, state: task.status.state }, 'CancelTask answered'),
      error: (error: unknown) => {
        const cause = toA2AError(error, 'cancel');
        ctx.logger.warn({ taskId, kind: cause.kind, error: cause.message }, 'CancelTask failed');
      },
    });
  ctx.onCancel?.(cancel);
}
