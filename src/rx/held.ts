import { Observable, Subscription, type Subscriber } from 'rxjs';

/**
 * A hot source listened to from now on, its values held until {@link Held.values$} is subscribed,
 * then handed on as they come: what a turn that follows a task by push needs, since the agent may
 * post before the turn knows it should read. At most `max` values are held (past it the oldest go,
 * counted in {@link Held.dropped}); once handed on, nothing is held. `release()` stops listening.
 */
export class Held<T> {
  private readonly held: T[] = [];
  private reader: Subscriber<T> | undefined;
  private readonly listening: Subscription;
  private lost = 0;
  private ended: { error: unknown } | 'complete' | undefined;

  constructor(
    source: Observable<T>,
    private readonly max: number,
  ) {
    this.listening = source.subscribe({
      next: (value) => {
        if (this.reader !== undefined) return this.reader.next(value);
        this.held.push(value);
        if (this.held.length > this.max) {
          this.held.shift();
          this.lost++;
        }
      },
      error: (error: unknown) => this.end({ error }),
      complete: () => this.end('complete'),
    });
  }

  /** The held values, then the source's as they come; one reader at a time (a second one replaces the first). */
  readonly values$: Observable<T> = new Observable<T>((subscriber) => {
    this.reader = subscriber;
    while (this.held.length > 0 && !subscriber.closed) subscriber.next(this.held.shift()!);
    if (this.ended === 'complete') subscriber.complete();
    else if (this.ended !== undefined) subscriber.error(this.ended.error);
    return () => {
      if (this.reader === subscriber) this.reader = undefined;
    };
  });

  /** Values dropped because more than `max` were held. */
  get dropped(): number {
    return this.lost;
  }

  /** Forgets what is held so far (what a snapshot read after it covers), and keeps listening. */
  clear(): void {
    this.held.length = 0;
  }

  /** What is held now, oldest first (not handed on). */
  get pending(): readonly T[] {
    return this.held;
  }

  /** Forgets the `count` oldest values held. */
  drop(count: number): void {
    this.held.splice(0, count);
  }

  /** Stops listening to the source and forgets what is held. */
  release(): void {
    this.listening.unsubscribe();
    this.held.length = 0;
  }

  private end(how: { error: unknown } | 'complete'): void {
    this.ended = how;
    if (this.reader === undefined) return;
    if (how === 'complete') this.reader.complete();
    else this.reader.error(how.error);
  }
}
