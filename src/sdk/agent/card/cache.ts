import { defer, EMPTY, map, of, shareReplay, tap, type Observable } from 'rxjs';

/** How long a resolved card is kept. */
export interface CacheTtl {
  /** When the server says nothing (no Cache-Control max-age). */
  defaultTtlMs: number;
  /** Never longer than this, whatever the server says. */
  maxTtlMs: number;
  /** Entries kept at most; the oldest goes first. */
  maxEntries: number;
}

/** What a load gives: the value, the server's max-age, and how to revalidate it (when it can be). */
export interface Loaded<T, V> {
  value: T;
  maxAgeMs: number | undefined;
  validators?: V;
}

/** A value past its expiry that can be revalidated: handed to the load, which may keep it (a 304). */
export interface Stale<T, V> {
  value: T;
  validators: V;
  /** The max-age its load gave (what stands when a 304 says none). */
  maxAgeMs: number | undefined;
}

/** One key's load: its shared Observable until loaded, then the value itself. */
interface Entry<T, V> {
  expiresAt: number;
  value$: Observable<T>;
  /** The loaded value (undefined while loading). */
  value: T | undefined;
  /** Its load's max-age and validators, once loaded. */
  maxAgeMs?: number | undefined;
  validators?: V | undefined;
}

/**
 * A small TTL cache of resolved agents keyed by card URL. Concurrent turns to one agent share one
 * fetch; a failed fetch is not kept; a fetch that everyone left before its value is aborted (the share
 * counts its subscribers); a success is kept for the server's `max-age` (bounded), or the default.
 * A value past its expiry whose load gave validators (the card's `ETag`, `Last-Modified`) is handed
 * to the next load as {@link Stale}, which may answer with it again (a 304) for another stretch.
 */
export class CardCache<T, V = unknown> {
  private readonly entries = new Map<string, Entry<T, V>>();

  /** `now` is the clock of the expiry times, in milliseconds; tests pass a fake one. */
  constructor(
    private readonly ttl: CacheTtl,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The cached value for `key`, or a new shared load. `load` gives the value, the server's max-age and
   * its validators; it is handed the expired value when that can be revalidated.
   */
  get(key: string, load: (stale?: Stale<T, V>) => Observable<Loaded<T, V>>): Observable<T> {
    return defer(() => {
      const cached = this.entries.get(key);
      if (cached && cached.expiresAt > this.now()) return cached.value$;
      const { value, validators } = cached ?? {};
      if (cached === undefined || value === undefined || validators === undefined) return this.add(key, () => load());
      return this.add(key, () => load({ value, validators, maxAgeMs: cached.maxAgeMs }));
    });
  }

  /**
   * Puts `next` in place of `previous` for the rest of its entry's life (same expiry, same place in
   * line): a value is never changed, a better one replaces it. Nothing happens when the entry holds
   * another value by now (it expired and was loaded anew, or it was never loaded).
   */
  replace(key: string, previous: T, next: T): void {
    const entry = this.entries.get(key);
    if (entry === undefined || entry.value !== previous) return;
    entry.value = next;
    entry.value$ = of(next);
  }

  private add(key: string, load: () => Observable<Loaded<T, V>>): Observable<T> {
    const entry: Entry<T, V> = { expiresAt: Number.POSITIVE_INFINITY, value$: EMPTY, value: undefined };
    entry.value$ = load().pipe(
      tap({
        next: ({ value, maxAgeMs, validators }) => {
          entry.expiresAt = this.now() + Math.min(maxAgeMs ?? this.ttl.defaultTtlMs, this.ttl.maxTtlMs);
          entry.value = value;
          entry.maxAgeMs = maxAgeMs;
          entry.validators = validators;
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
