import type { Observable, Observer, Subscriber } from 'rxjs';
import type { AgentEvent } from '../port/types.js';
import type { LadderContext } from './context.js';

/**
 * The observer of `untilStreamDone` (live.ts: a stream read until the event that finishes it, a close
 * before that a break): methods, not three closures per subscription (an open turn holds one).
 * `opensInterrupted` and `closedEarly` are live.ts's (module functions: nothing is made per stream).
 */
export class UntilStreamDone implements Observer<AgentEvent> {
  private opening = true;

  constructor(
    private readonly subscriber: Subscriber<AgentEvent>,
    private readonly ctx: LadderContext,
    private readonly operation: 'stream' | 'resubscribe',
    private readonly followUp: boolean,
    private readonly opensInterrupted: (event: AgentEvent) => boolean,
    private readonly closedEarly: (ctx: LadderContext, operation: 'stream' | 'resubscribe') => Observable<AgentEvent>,
  ) {}

  next(event: AgentEvent): void {
    if (event.kind === 'alive') return;
    const lastWord = !(this.followUp && this.opening && this.opensInterrupted(event));
    this.opening = false;
    this.subscriber.next(event);
    // Completing unsubscribes the source, here or (when it emitted while being subscribed) as soon as it is added.
    if (lastWord && this.ctx.task.streamDone) this.subscriber.complete();
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    const { subscriber, ctx } = this;
    if (ctx.task.streamDone) subscriber.complete();
    else this.closedEarly(ctx, this.operation).subscribe(subscriber);
  }
}
