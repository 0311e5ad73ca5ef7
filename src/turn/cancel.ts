import { finalize, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { toA2AError } from '../errors.js';
import type { Task } from '../port/types.js';
import type { LadderContext } from './context.js';
import { within } from './watchdog.js';

/**
 * When the turn ends for any reason (unsubscribe, deadline, error) while the agent's task is known
 * and not settled, sends `CancelTask` once (not to a task the agent just said it does not know). An aborted stream alone does not stop the agent's work.
 *
 * The cancel is its own bounded request, started from the teardown and subscribed by nothing that
 * the teardown reaches, so it outlives the turn. Its failure is logged, never thrown.
 */
export function cancelWhenAbandoned<T>(ctx: LadderContext): MonoTypeOperatorFunction<T> {
  return finalize(() => {
    const { taskId } = ctx.task;
    if (taskId === undefined || !ctx.task.cancellable) return;
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
  });
}

/**
 * The CancelTasks that abandoned turns started and that are still in flight, so a process can let
 * them reach the agents before it exits. Hand `track` to the ladder as its `onCancel`.
 */
export class CancelsInFlight {
  private readonly pending = new Set<Promise<void>>();

  readonly track = (cancel: Subscription): void => {
    const done = new Promise<void>((resolve) => cancel.add(resolve));
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
  };

  /** Resolves when every CancelTask in flight now was answered, failed or timed out (each is bounded). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }
}
