import { Observable, type Observer, type OperatorFunction, type Subscriber } from 'rxjs';

/** What {@link spread} does with each value, and before the first and after the last. */
export interface Spread<T, R> {
  /** Emitted on subscribe, before the source is subscribed. */
  first?: readonly R[];
  /** The values one source value becomes, emitted in order. */
  each: (value: T) => readonly R[];
  /** Emitted when the source completes, before completing. */
  last?: () => readonly R[];
}

/**
 * `concatMap(each)` over synchronous arrays, with `startWith(...first)` and `concatWith(defer(last))`,
 * in one hop: each value's array is emitted in place, with no inner subscription per value. A
 * throwing `each` or `last` errors the stream (and unsubscribes the source), as in `concatMap`.
 * This is the per-event path of every turn, so it allocates nothing beyond what `each` returns.
 */
export function spread<T, R>({ first, each, last }: Spread<T, R>): OperatorFunction<T, R> {
  return (source) =>
    new Observable<R>((subscriber) => {
      if (first !== undefined && !emit(subscriber, first)) return;
      return source.subscribe(new Spreading(subscriber, each, last));
    });
}

/**
 * {@link spread}'s observer: its steps are methods, not three closures and an object per
 * subscription (a turn's graph holds one per operator for as long as the turn is open).
 */
class Spreading<T, R> implements Observer<T> {
  constructor(
    private readonly subscriber: Subscriber<R>,
    private readonly each: (value: T) => readonly R[],
    private readonly last: (() => readonly R[]) | undefined,
  ) {}

  next(value: T): void {
    let out: readonly R[];
    try {
      out = this.each(value);
    } catch (error) {
      this.subscriber.error(error);
      return;
    }
    emit(this.subscriber, out);
  }

  error(error: unknown): void {
    this.subscriber.error(error);
  }

  complete(): void {
    const { subscriber, last } = this;
    if (last !== undefined) {
      let out: readonly R[];
      try {
        out = last();
      } catch (error) {
        subscriber.error(error);
        return;
      }
      if (!emit(subscriber, out)) return;
    }
    subscriber.complete();
  }
}

/** Emits `values` while the subscriber is open; false when it closed on the way. */
function emit<R>(subscriber: Subscriber<R>, values: readonly R[]): boolean {
  for (let i = 0; i < values.length && !subscriber.closed; i++) subscriber.next(values[i]!);
  return !subscriber.closed;
}
