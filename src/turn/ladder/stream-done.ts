import { asyncScheduler, type Observable, type Observer, type Subscriber, type Subscription, type Unsubscribable } from 'rxjs';
import type { AgentEvent } from '../../port/types.js';
import type { LadderContext } from '../context.js';

/**
 * The longest quiet after a stream's last word (its final status) before the turn stops reading it,
 * when the response has not ended by then (never longer than the idle bound). A server ends the
 * response right after its last word; one that sends the rest of its reply after it
 * (`@reactive-agents/a2a` 0.9.0 sends the final status and then the artifact) sends it at once.
 */
export const AFTER_LAST_WORD_MS = 250;

/**
 * The observer of `untilStreamDone` (live.ts: a stream read until the event that finishes it, a close
 * before that a break): methods, not three closures per subscription (an open turn holds one).
 * `opensInterrupted` and `closedEarly` are live.ts's (module functions: nothing is made per stream).
 *
 * A status that finishes the stream while the turn has shown nothing of a reply is not the end of
 * the reading: the stream is read on to the response's end, and what the agent sends after its final
 * status (its reply, for some) is passed on like any event. A response that has not ended after
 * {@link AFTER_LAST_WORD_MS} of quiet (or the idle bound, when shorter) is left, and the stream
 * completes; so does one that fails after the last word (what it said stands). A final status after
 * a reply shown, or a task or message that finishes the stream, ends it at once, as a server that
 * keeps its stream open after an INPUT_REQUIRED question needs.
 */
export class UntilStreamDone implements Observer<AgentEvent>, Unsubscribable {
  private opening = true;
  /** The last word was said: the stream is read on until it ends or is quiet. */
  private readingOn = false;
  private quiet: Subscription | undefined;

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
    if (this.readingOn) {
      this.subscriber.next(event);
      return this.waitQuiet();
    }
    const lastWord = !(this.followUp && this.opening && this.opensInterrupted(event));
    this.opening = false;
    this.subscriber.next(event);
    if (!lastWord || !this.ctx.task.streamDone) return;
    // Completing unsubscribes the source, here or (when it emitted while being subscribed) as soon as it is added.
    if (event.kind !== 'status' || this.ctx.nothingShown?.() !== true) return this.subscriber.complete();
    this.readingOn = true;
    this.waitQuiet();
  }

  error(error: unknown): void {
    if (!this.readingOn) return this.subscriber.error(error);
    this.unsubscribe();
    this.ctx.logger.debug({ error: error instanceof Error ? error.message : String(error) }, 'the stream failed after its last word');
    this.subscriber.complete();
  }

  complete(): void {
    const { subscriber, ctx } = this;
    this.unsubscribe();
    if (this.readingOn || ctx.task.streamDone) subscriber.complete();
    else this.closedEarly(ctx, this.operation).subscribe(subscriber);
  }

  /** The quiet clock stopped (the subscription's teardown, or the stream's end). */
  unsubscribe(): void {
    this.quiet?.unsubscribe();
    this.quiet = undefined;
  }

  /** The quiet clock (re)started: when it runs out, the stream completes (and its source is left). */
  private waitQuiet(): void {
    this.unsubscribe();
    const ms = Math.min(AFTER_LAST_WORD_MS, this.ctx.policy.idleTimeoutMs);
    this.quiet = asyncScheduler.schedule(() => this.subscriber.complete(), ms);
  }
}
