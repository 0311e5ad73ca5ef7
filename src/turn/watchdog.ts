import {
  asyncScheduler,
  Observable,
  ReplaySubject,
  switchMap,
  take,
  throwError,
  timeout,
  type MonoTypeOperatorFunction,
  type Observer,
  type Subscriber,
  type Subscription,
} from 'rxjs';
import { timeoutError, type A2AOperation, type TimeoutPhase } from '../errors.js';

/**
 * What a value does to the watchdog's clock: a number restarts it with that many milliseconds,
 * `'keep'` leaves it running.
 */
export type Budget = number | 'keep';

/**
 * A clock over a stream whose budget each value may change: the idle gap between events, the
 * auth wait that suspends it, the staleness of a polled task. When the clock runs out, the source
 * is unsubscribed first (aborting its request) and then the stream errors with `expired()`.
 *
 * Per event it only moves a deadline (one `now()`), so a fast stream costs no timer churn. It runs
 * on RxJS's async scheduler, so marble tests drive it on virtual time.
 */
export function watchdog<T>(first: Budget, next: (value: T) => Budget, expired: () => unknown): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const watch = new Watch(subscriber, next, expired);
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

/** `timeout({ first })` for a one-shot request, failing with a timeout {@link A2AError} for `phase`. */
export function within<T>(ms: number, phase: TimeoutPhase, operation: A2AOperation): MonoTypeOperatorFunction<T> {
  return timeout({ first: ms, with: () => throwError(() => timeoutError(phase, ms, operation)) });
}

/**
 * {@link within} whose clock starts when `from$` first emits (at once when it has, or when it is
 * absent), while the request goes at once: a lookup started beside the card is bounded from the
 * card's arrival, as it was when it waited for the card. What the request answers before then is kept.
 */
export function withinFrom<T>(
  from$: Observable<unknown> | undefined,
  ms: number,
  phase: TimeoutPhase,
  operation: A2AOperation,
): MonoTypeOperatorFunction<T> {
  if (from$ === undefined) return within(ms, phase, operation);
  return (source) =>
    new Observable<T>((subscriber) => {
      const answered = new ReplaySubject<T>();
      const request = source.subscribe(answered);
      const bounded = from$.pipe(
        take(1),
        switchMap(() => answered.pipe(within<T>(ms, phase, operation))),
      );
      bounded.subscribe(subscriber);
      return request;
    });
}
