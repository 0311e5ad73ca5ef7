import { Observable, ReplaySubject, switchMap, take, throwError, timeout, type MonoTypeOperatorFunction } from 'rxjs';
import { timeoutError, type A2AOperation, type TimeoutPhase } from '../errors.js';

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
