import type { Observable, SchedulerLike, Subscriber, Subscription } from 'rxjs';
import type { A2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';

/**
 * The turn a limit holds back, made when it starts: `hold` is given each CancelTask (or read-on) its
 * ladder leaves behind (the ladder's `onCancel`), and the turn keeps its place among the running ones
 * until every one of them ended.
 */
export type LimitedRun = (hold: (cancel: Subscription) => void) => Observable<TurnEvent>;

/** Told when a turn leaves its queue unstarted (`started` false), or is let go after it ran. */
export type LetGo = (turn: LimitedTurn, started: boolean) => void;

type Phase = 'waiting' | 'running' | 'holding' | 'done';

/**
 * One subscription of a limited turn: its subscriber, the turn to run once the limit lets it start,
 * and its teardown, in one object. Waiting, it says its place (`queued`); running, the turn's events
 * go straight to the subscriber (no hop of its own per event); ended or left, it lets its place go: at
 * once, or, when the turn left a CancelTask behind, once that is answered (each is bounded by the
 * policy's `cancelTimeoutMs`).
 */
export class LimitedTurn {
  private phase: Phase = 'waiting';
  /** The place last said: the turn is told only when it moved. */
  private place = 0;
  /** The turn's CancelTasks still in flight. */
  private holds = 0;

  constructor(
    private readonly subscriber: Subscriber<TurnEvent>,
    private readonly turn: LimitedRun,
    private readonly scheduler: SchedulerLike,
    private readonly letGo: LetGo,
  ) {}

  /** Its place in the queue, said when it changed. */
  tell(place: number): void {
    if (this.phase !== 'waiting' || place === this.place) return;
    this.place = place;
    this.subscriber.next({ type: 'queued', place });
  }

  /** Fails it at once (the queue is full): `start`, then the error, as an input check's error comes; nothing is sent. */
  refuse(error: A2AError): void {
    this.phase = 'done';
    this.subscriber.next({ type: 'start' });
    this.subscriber.error(error);
  }

  /**
   * Starts the turn (the limit counted it), subscribed with this turn's own subscriber: the turn's
   * teardown is added to it first, so `ended`, added after, runs once that teardown ran (and gave
   * `hold` the CancelTask it sends), however the turn ends.
   */
  run(): void {
    this.phase = 'running';
    this.turn(this.hold).subscribe(this.subscriber);
    this.subscriber.add(this.ended);
  }

  /** The subscription's teardown: a waiting turn leaves its queue (a running one is let go by `ended`). */
  unsubscribe(): void {
    if (this.phase !== 'waiting') return;
    this.phase = 'done';
    this.letGo(this, false);
  }

  private readonly ended = (): void => this.settle();

  /** The ladder's `onCancel`: the place is kept until `cancel` ended. */
  private readonly hold = (cancel: Subscription): void => {
    if (this.phase === 'done') return;
    this.holds++;
    cancel.add(() => this.released());
  };

  private released(): void {
    this.holds--;
    // A read-on that ends starts its CancelTask right after: look again once the current work is done.
    if (this.holds === 0 && this.phase === 'holding') this.scheduler.schedule(() => this.settle());
  }

  /** Lets the place go once no CancelTask of the turn is in flight. */
  private settle(): void {
    if (this.phase === 'done') return;
    if (this.holds > 0) {
      this.phase = 'holding';
      return;
    }
    this.phase = 'done';
    this.letGo(this, true);
  }
}
