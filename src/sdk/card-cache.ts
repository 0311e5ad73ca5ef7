import { defer, map, of, shareReplay, tap, type Observable } from 'rxjs';

/** How long a resolved card is kept. */
export interface CacheTtl {
  /** When the server says nothing (no Cache-Control max-age). */
  defaultTtlMs: number;
  /** Never longer than this, whatever the server says. */
  maxTtlMs: number;
  /** Entries kept at most; the oldest goes first. */
  maxEntries: number;
}

/**
 * A small TTL cache of resolved agents keyed by card URL. Concurrent turns to one agent share one
 * fetch; a failed fetch is not kept; a fetch that everyone left before its value is aborted (the share
 * counts its subscribers); a success is kept for the server's `max-age` (bounded), or the default.
 */
export class CardCache<T> {
  private readonly entries = new Map<string, { expiresAt: number; value$: Observable<T> }>();

  /** `now` is the clock of the expiry times, in milliseconds; tests pass a fake one. */
  constructor(
    private readonly ttl: CacheTtl,
    private readonly now: () => number = Date.now,
  ) {}

  /** The cached value for `key`, or a new shared load. `load` gives the value and the server's max-age. */
  get(key: string, load: () => Observable<{ value: T; maxAgeMs: number | undefined }>): Observable<T> {
    return defer(() => {
      const cached = this.entries.get(key);
      if (cached && cached.expiresAt > this.now()) return cached.value$;
      return this.add(key, load);
    });
  }

  private add(key: string, load: () => Observable<{ value: T; maxAgeMs: number | undefined }>): Observable<T> {
    const entry = { expiresAt: Number.POSITIVE_INFINITY, value$: undefined as unknown as Observable<T> };
    entry.value$ = load().pipe(
      tap({
        next: ({ value, maxAgeMs }) => {
          entry.expiresAt = this.now() + Math.min(maxAgeMs ?? this.ttl.defaultTtlMs, this.ttl.maxTtlMs);
          // Loaded: later readers get the value itself, so a reader that leaves at the value (firstValueFrom)
          // before the load completes does not reset the share and cost the next reader a fetch.
          entry.value$ = of(value);
        },
        error: () => {
          if (this.entries.get(key) === entry) this.entries.delete(key);
        },
      }),
      map(({ value }) => value),
      shareReplay({ bufferSize: 1, refCount: true }),
    );
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.ttl.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return entry.value$;
  }
}
