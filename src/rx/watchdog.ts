import { asyncScheduler, Observable, type MonoTypeOperatorFunction, type Observer, type Subscriber, type Subscription } from 'rxjs';

/**
 * What a value does to the watchdog's clock: a number restarts it with that many milliseconds,
 * `'keep'` leaves it running.
 */
export type Budget = number | 'keep';

/** What {@link watchdog} watches, as RxJS's `timeout` takes its config. */
export interface WatchdogConfig<T> {
  /** The budget from subscription to the first value. */
  first: Budget;
  /** What each value does to the clock: a new budget from now, or `'keep'`. */
  each: (value: T) => Budget;
  /** The error the stream fails with when the clock runs out. */
  expired: () => unknown;
}

/**
 * A clock over a stream whose budget each value may change: the idle gap between events, the
 * auth wait that suspends it, the staleness of a polled task. When the clock runs out, the source
 * is unsubscribed first (aborting its request) and then the stream errors with `expired()`.
 *
 * Per event it only moves a deadline (one `now()`), so a fast stream costs no timer churn. It runs
 * on RxJS's async scheduler, so marble tests drive it on virtual time.
 */
export function watchdog<T>({ first, each, expired }: WatchdogConfig<T>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const watch = new Watch(subscriber, each, expired);
      watch.set(first);
      watch.upstream = source.subscribe(watch);
      return watch;
    });
}

/**
 * {@link watchdog}'s state, observer and teardown in one object: methods, not a closure per step per
 * subscription (an open turn holds two or three watchdogs).
 */
class Watch<T> implements Observer<T> {
  private deadline = Infinity;
  private firesAt = Infinity;
  private clock: Subscription | undefined;
  upstream: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly budget: (value: T) => Budget,
    private readonly expired: () => unknown,
  ) {}

  next(value: T): void {
    this.set(this.budget(value));
    this.subscriber.next(value);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }

  set(budget: Budget): void {
    if (budget === 'keep') return;
    this.deadline = asyncScheduler.now() + budget;
    if (this.deadline < this.firesAt) this.arm(budget);
  }

  /** The clock ran out: armed again for what is left, or the source is left and the stream errors. */
  check(): void {
    this.clock = undefined;
    this.firesAt = Infinity;
    const left = this.deadline - asyncScheduler.now();
    if (left > 0) return this.arm(left);
    this.upstream?.unsubscribe();
    this.subscriber.error(this.expired());
  }

  unsubscribe(): void {
    this.stop();
    this.upstream?.unsubscribe();
  }

  private stop(): void {
    this.clock?.unsubscribe();
    this.clock = undefined;
    this.firesAt = Infinity;
  }

  private arm(delay: number): void {
    this.stop();
    this.firesAt = asyncScheduler.now() + delay;
    // The scheduler itself, not `timer()`: no Observable and subscriber per clock (virtual in marble tests).
    this.clock = asyncScheduler.schedule(fire, delay, this as Watch<unknown>);
  }
}

/** A watchdog's clock going off (a scheduler action's work: no closure per clock). */
function fire(watch: Watch<unknown> | undefined): void {
  watch!.check();
}
