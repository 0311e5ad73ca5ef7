import { Observable, take, timeout } from 'rxjs';
import { CardCache } from '../card/cache.js';
import { fetchJwks, jwksError, type FetchedJwks } from './jwks-fetch.js';
import type { TrustedKey } from './jwks.js';
import type { CheckedTrust } from './options.js';

/**
 * The keys at the trusted JWKS URLs, fetched with the client's fetch when a signature needs them:
 * bounded in size and time, kept for the server's `max-age` up to `jwksCacheMs` (one entry per
 * trusted URL, the only URLs ever fetched); concurrent checks share one fetch, a failed one is not kept.
 */
export class JwksSource {
  private readonly cache: CardCache<TrustedKey[]>;

  constructor(
    private readonly fetchImpl: typeof fetch,
    private readonly trust: CheckedTrust,
    clock?: () => number,
  ) {
    const ttl = { defaultTtlMs: trust.cacheMs, maxTtlMs: trust.cacheMs, maxEntries: Math.max(trust.urls.length, 1) };
    this.cache = new CardCache<TrustedKey[]>(ttl, clock);
  }

  /**
   * The keys at `url` (a trusted JWKS URL), waiting at most `waitMs` for them (and never longer than
   * `jwksTimeoutMs`): a fetch under way is shared, and stopped once every check waiting for it has left.
   * Rejects with an `Error` naming the URL and what went wrong.
   */
  keysAt(url: string, signal: AbortSignal, waitMs: number = this.trust.timeoutMs): Promise<TrustedKey[]> {
    const { timeoutMs, maxBytes } = this.trust;
    const load = () =>
      new Observable<FetchedJwks>((subscriber) => {
        const controller = new AbortController();
        fetchJwks(this.fetchImpl, url, maxBytes, controller.signal).then(
          (loaded) => {
            subscriber.next(loaded);
            subscriber.complete();
          },
          (error: unknown) => subscriber.error(error),
        );
        return () => controller.abort();
      }).pipe(timeout({ first: timeoutMs, with: () => failure(url, new Error(`no answer within ${timeoutMs} ms`)) }));
    const keys$ = this.cache.get(url, load);
    const wait = Math.max(0, Math.ceil(waitMs));
    const waited$ =
      wait >= timeoutMs ? keys$ : keys$.pipe(timeout({ first: wait, with: () => failure(url, new Error(`no answer within ${wait} ms`)) }));
    return firstValueUntil(waited$, signal);
  }
}

function failure(url: string, cause: unknown): Observable<never> {
  return new Observable((subscriber) => subscriber.error(jwksError(url, cause)));
}

/** The first value of `source$`, or its error; leaving it (and rejecting) when `signal` aborts. */
function firstValueUntil<T>(source$: Observable<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const subscription = source$.pipe(take(1)).subscribe({
      next: resolve,
      error: (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
      complete: () => signal.removeEventListener('abort', onAbort),
    });
    function onAbort(): void {
      subscription.unsubscribe();
      reject(signal.reason);
    }
    if (!subscription.closed) signal.addEventListener('abort', onAbort, { once: true });
  });
}
