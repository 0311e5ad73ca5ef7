import {
  asyncScheduler,
  finalize,
  Observable,
  timer,
  type MonoTypeOperatorFunction,
  type Observer,
  type Subscriber,
  type Subscription,
} from 'rxjs';
import { toA2AError } from '../../errors.js';
import type { OutgoingMessage, Task } from '../../port/types.js';
import { cancelCarrying } from './cancel-carrying.js';
import type { LadderContext } from '../context.js';
import { within } from '../within.js';

/**
 * When the turn ends for any reason (unsubscribe, deadline, error) while the agent's task is known
 * and not settled, sends `CancelTask` once (not to a task the agent just said it does not know).
 * An aborted stream alone does not stop the agent's work.
 */
export function cancelWhenAbandoned<T>(ctx: LadderContext): MonoTypeOperatorFunction<T> {
  return finalize(() => cancelTask(ctx));
}

/**
 * The turn's first request (the streaming or the blocking send of `message`), read on in the
 * background when the turn is left before the agent named its task — a gateway's `switchMap` does
 * that to every superseded message — so that task can still be cancelled: until the task id arrives
 * (then `CancelTask`), the request ends, or `cancelTimeoutMs` passes. Ended without the task named,
 * the task carrying the message is looked up and cancelled where the agent lists tasks
 * ({@link cancelCarrying}). `close()` waits for all of it too.
 */
export function cancelWhenNamed<T>(ctx: LadderContext, message: OutgoingMessage): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const named = new WhenNamed(subscriber, ctx, message);
      named.upstream = source.subscribe(named);
      return named;
    });
}

/** {@link cancelWhenNamed}'s observer and teardown in one object: methods, not five closures per turn. */
class WhenNamed<T> implements Observer<T> {
  upstream!: Subscription;
  private background: Subscription | undefined;
  // The request ended (failed or completed): nothing is left to read on. (`upstream.closed` is
  // still false while its error or completion is being delivered, which is when the teardown runs.)
  private ended = false;

  /** When the request was made: the lookup of its message lists the tasks changed since. */
  private readonly sentAt = asyncScheduler.now();

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly ctx: LadderContext,
    private readonly message: OutgoingMessage,
  ) {}

  next(value: T): void {
    if (!this.background) this.subscriber.next(value);
    else if (this.ctx.task.taskId !== undefined || this.ctx.task.settled) this.stop();
  }

  error(error: unknown): void {
    this.ended = true;
    if (this.background) this.stop();
    else this.subscriber.error(error);
  }

  complete(): void {
    this.ended = true;
    if (this.background) this.stop();
    else this.subscriber.complete();
  }

  /** The turn's teardown: the request ends, or it is read on in the background until the task is named. */
  unsubscribe(): void {
    const { ctx, upstream } = this;
    if (this.ended || upstream.closed || ctx.task.taskId !== undefined || ctx.task.settled || ctx.detached?.())
      return upstream.unsubscribe();
    ctx.logger.debug({}, 'the turn was left before the agent named its task: reading on to cancel it');
    this.background = timer(ctx.policy.cancelTimeoutMs).subscribe(() => this.stop());
    ctx.onCancel?.(this.background);
  }

  private stop(): void {
    const { ctx } = this;
    this.upstream.unsubscribe();
    this.background?.unsubscribe();
    if (ctx.task.taskId === undefined && !ctx.task.settled) cancelCarrying(ctx, this.message, this.sentAt, cancelTask);
    else cancelTask(ctx);
  }
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
