import {
  asyncScheduler,
  Observable,
  ReplaySubject,
  switchMap,
  take,
  throwError,
  timeout,
  type MonoTypeOperatorFunction,
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
      let deadline = Infinity;
      let firesAt = Infinity;
      let clock: Subscription | undefined;
      let upstream: Subscription | undefined;

      const stop = (): void => {
        clock?.unsubscribe();
        clock = undefined;
        firesAt = Infinity;
      };
      const arm = (delay: number): void => {
        stop();
        firesAt = asyncScheduler.now() + delay;
        // The scheduler itself, not `timer()`: no Observable and subscriber per clock (virtual in marble tests).
        clock = asyncScheduler.schedule(check, delay);
      };
      const check = (): void => {
        clock = undefined;
        firesAt = Infinity;
        const left = deadline - asyncScheduler.now();
        if (left > 0) return arm(left);
        upstream?.unsubscribe();
        subscriber.error(expired());
      };
      const set = (budget: Budget): void => {
        if (budget === 'keep') return;
        deadline = asyncScheduler.now() + budget;
        if (deadline < firesAt) arm(budget);
      };

      set(first);
      upstream = source.subscribe({
        next: (value) => {
          set(next(value));
          subscriber.next(value);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        stop();
        upstream?.unsubscribe();
      };
    });
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
