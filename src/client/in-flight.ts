import { Observable, type Subscriber } from 'rxjs';
import { A2AError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { TurnEvent } from '../port/events.js';
import type { TurnPolicy } from '../turn/policy.js';
import type { LadderOptions } from '../turn/turn.js';
import type { LeaveMode } from './types.js';

/** The ladder's options as the client sets them for a turn. */
export type Ladder = LadderOptions & { policy: TurnPolicy; logger: Logger };

/**
 * The client's turns while they run: each counted from its subscribe to its end, so `close()` can
 * end them (abandoned, their tasks cancelled; or handed over with `detach`), and, with
 * `onLeave: 'detach'`, told it is detached when its subscriber leaves before its end.
 */
export class TurnsInFlight {
  /** The ladder of every turn: detached while the client hands its turns over. */
  readonly ladder: Ladder;
  private readonly running = new Set<Subscriber<TurnEvent>>();
  /** Set by `end(true)`: the turns it ends hand their tasks over (no CancelTask). */
  private detaching = false;
  /** Set by `end()`: a turn it ends is abandoned (cancelled) even with `onLeave: 'detach'`, unless it detaches. */
  private closed = false;

  constructor(ladder: Omit<Ladder, 'detached'>) {
    this.ladder = { ...ladder, detached: () => this.detaching };
  }

  /**
   * `run` after the input is checked (a check's error comes after `start`, as a turn's does), its
   * subscriber counted among the running ones while it runs. One object per turn: the check and
   * the count in one subscribe. With `onLeave: 'detach'` the turn's ladder is told it is detached
   * once its subscriber leaves before its end (not on its own error or completion, so a deadline
   * still cancels).
   */
  turn(
    input: { onLeave?: LeaveMode },
    check: () => string,
    run: (key: string, turnLadder: Ladder) => Observable<TurnEvent>,
  ): Observable<TurnEvent> {
    return new Observable<TurnEvent>((subscriber) => {
      const detachOnLeave = input.onLeave === 'detach';
      /** The subscriber left before the turn ended (only tracked for `onLeave: 'detach'`). */
      let left = false;
      let turn$: Observable<TurnEvent>;
      try {
        const turnLadder = detachOnLeave ? { ...this.ladder, detached: () => this.detaching || (left && !this.closed) } : this.ladder;
        turn$ = run(check(), turnLadder);
      } catch (error) {
        subscriber.next({ type: 'start' });
        subscriber.error(error);
        return undefined;
      }
      this.running.add(subscriber);
      if (!detachOnLeave) {
        const subscription = turn$.subscribe(subscriber);
        return () => {
          this.running.delete(subscriber);
          subscription.unsubscribe();
        };
      }
      let ended = false;
      const subscription = turn$.subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => {
          ended = true;
          subscriber.error(error);
        },
        complete: () => {
          ended = true;
          subscriber.complete();
        },
      });
      return () => {
        this.running.delete(subscriber);
        left = !ended;
        subscription.unsubscribe();
      };
    });
  }

  /**
   * Ends every turn still running with an `aborted` error: handed over (`detach`: no CancelTask), or
   * abandoned, its task cancelled as any left turn's.
   */
  end(detach: boolean): void {
    if (detach) this.detaching = true;
    this.closed = true;
    const ended = new A2AError({
      kind: 'aborted',
      operation: 'turn',
      message: this.detaching
        ? 'the client closed to hand its turns over: the task goes on at the agent; resume it from another process'
        : 'the client closed while the turn ran: its task was cancelled',
    });
    for (const subscriber of [...this.running]) subscriber.error(ended);
  }
}
