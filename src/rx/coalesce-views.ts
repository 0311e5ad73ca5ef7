import { asyncScheduler, identity, Observable, type MonoTypeOperatorFunction, type SchedulerLike, type Subscription } from 'rxjs';
import { A2AError } from '../errors.js';

/** The longest window a timer can hold (setTimeout's bound, about 24.8 days). */
const MAX_WINDOW_MS = 2 ** 31 - 1;

/**
 * A throttle for views, leading and trailing: the first value at once, then at most one per
 * `windowMs` (the latest of the window, at its end, which opens the next window); a value for which
 * `isFinal` is true at once, cancelling the window and dropping the value waiting in it (no stale
 * view after the final one); on completion or error the waiting value at once, then the completion
 * or error. A value after a quiet window goes at once. Unsubscribing cancels the window's timer.
 * A window of 0 hands over every value.
 *
 * ```ts
 * turn$.pipe(turnState(), coalesceViews(50, (view) => view.phase !== 'running'))
 * ```
 *
 * @throws A2AError `kind: 'config'` when `windowMs` is not a number of milliseconds from 0 to 2^31 − 1.
 */
export function coalesceViews<T>(
  windowMs: number,
  isFinal: (value: T) => boolean,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<T> {
  if (!(windowMs >= 0 && windowMs <= MAX_WINDOW_MS))
    throw new A2AError({ kind: 'config', operation: 'options', message: `coalesceMs must be from 0 to ${MAX_WINDOW_MS}, not ${windowMs}` });
  if (windowMs === 0) return identity;
  return (source) =>
    new Observable<T>((subscriber) => {
      let window: Subscription | undefined;
      let waiting: { value: T } | undefined;

      const close = (): void => {
        window?.unsubscribe();
        window = undefined;
      };
      // Opens the window first: a value the subscriber causes while it takes this one waits in it, and a
      // subscriber that leaves on the way cancels it in the teardown (no timer behind it).
      const send = (value: T): void => {
        window = scheduler.schedule(windowEnd, windowMs);
        subscriber.next(value);
      };
      const windowEnd = (): void => {
        window = undefined;
        const last = waiting;
        waiting = undefined;
        if (last !== undefined) send(last.value);
      };
      const flush = (): void => {
        close();
        const last = waiting;
        waiting = undefined;
        if (last !== undefined) subscriber.next(last.value);
      };

      const upstream = source.subscribe({
        next: (value) => {
          let final: boolean;
          try {
            final = isFinal(value);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          if (final) {
            close();
            waiting = undefined;
            subscriber.next(value);
          } else if (window !== undefined) waiting = { value };
          else send(value);
        },
        error: (error: unknown) => {
          flush();
          subscriber.error(error);
        },
        complete: () => {
          flush();
          subscriber.complete();
        },
      });
      return () => {
        close();
        waiting = undefined;
        upstream.unsubscribe();
      };
    });
}
