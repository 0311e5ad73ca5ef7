import { Observable } from 'rxjs';
import type { A2AError, A2AOperation, AuthDetails } from '../../../errors.js';
import { classifySdkError } from '../classify/sdk-errors.js';
import type { ResponseWatch } from '../fetch/response-watch.js';
import { callFor, renewAfterRefusal, type Caller } from '../../http/credentials/callers.js';

/** Where a call goes, as its errors name it, and the watch that saw its status. */
export interface CallSite {
  operation: A2AOperation;
  agent: string;
  watch: ResponseWatch;
  auth?: AuthDetails;
  /** Whom the call is for: its credentials are made for them (see {@link callFor}). */
  caller?: Caller;
}

/** The call's site with what its watch saw of the answer: its status, and a 429's or 503's `Retry-After`. */
function seen(site: CallSite, signal: AbortSignal): CallSite & { status?: number; retryAfterMs?: number } {
  const status = site.watch.statusOf(signal);
  const retryAfterMs = site.watch.retryAfterOf(signal);
  return { ...site, ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
}

/**
 * One SDK promise call as a cold Observable: the call starts on subscribe with its own
 * AbortController, aborted on teardown; its failure is classified into an A2AError. Credentials the
 * binding itself refused (gRPC UNAUTHENTICATED) and that can be renewed: the call is made once more.
 */
export function unaryCall<T>(site: CallSite, run: (signal: AbortSignal) => Promise<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    let controller: AbortController;
    let settled = false;
    const attempt = (retry: boolean): void => {
      const { signal } = (controller = new AbortController());
      callFor(signal, site.caller, retry);
      // An SDK method that throws before its promise (a capability its client checks on the card) fails like one that rejects.
      new Promise<T>((resolve) => resolve(run(signal))).then(
        (value) => {
          settled = true;
          subscriber.next(value);
          subscriber.complete();
        },
        (error: unknown) => {
          if (signal.aborted) return void (settled = true);
          const failure = classifySdkError(error, seen(site, signal));
          if (!retry && renewed(failure, signal)) return attempt(true);
          settled = true;
          subscriber.error(failure);
        },
      );
    };
    attempt(false);
    // Abort only a call still in flight: aborting a finished one costs a DOMException for nothing.
    return () => {
      if (!settled) controller.abort();
    };
  });
}

/**
 * A way for a stream call's events to come besides its iterable (gRPC's direct delivery): a sink
 * opened per call, the key the call carries to name it, and its closing.
 */
export type DirectSinks = (sink: (event: unknown, read?: boolean) => void) => { readonly key: string; close(): void };

/**
 * One SDK stream (or the promise of one) as a cold Observable of mapped events. Unsubscribing aborts the request (an idle
 * stream is not left waiting for its next chunk); a graceful close completes; a drop errors.
 * Refused before its first event for credentials that can be renewed (gRPC UNAUTHENTICATED): opened once more.
 * With `direct`, each attempt opens a sink whose key `open` puts on the call: events handed to it are
 * mapped and emitted at once (a malformed one fails the stream and aborts the call), as those that come
 * through the iterable are; one handed over as `read` was read into the mapped event already (gRPC's
 * parse-less path) and is emitted as it is.
 */
export function streamCall<S, T>(
  site: CallSite,
  open: (signal: AbortSignal, sink?: string) => AsyncIterable<S> | Promise<AsyncIterable<S>>,
  map: (event: S) => T,
  direct?: DirectSinks,
): Observable<T> {
  return new Observable<T>((subscriber) => {
    let controller: AbortController;
    let ended = false;
    let spoke = false;
    let delivery: ReturnType<DirectSinks> | undefined;
    const emit = (event: S): void => {
      spoke = true;
      subscriber.next(map(event));
    };
    const emitRead = (event: T): void => {
      spoke = true;
      subscriber.next(event);
    };
    const attempt = (retry: boolean): void => {
      const { signal } = (controller = new AbortController());
      callFor(signal, site.caller, retry);
      delivery = direct?.((event, read) => {
        if (subscriber.closed) return;
        try {
          if (read === true) emitRead(event as T);
          else emit(event as S);
        } catch (error) {
          // The call is still open: the teardown aborts it.
          subscriber.error(classifySdkError(error, seen(site, signal)));
        }
      });
      const pump = async (): Promise<void> => {
        for await (const event of await open(signal, delivery?.key)) {
          if (subscriber.closed) return;
          emit(event);
        }
        delivery?.close();
        ended = true;
        subscriber.complete();
      };
      pump().catch((error: unknown) => {
        delivery?.close();
        if (subscriber.closed || signal.aborted) return void (ended = true);
        const failure = classifySdkError(error, seen(site, signal));
        if (!retry && !spoke && renewed(failure, signal)) return attempt(true);
        ended = true;
        subscriber.error(failure);
      });
    };
    attempt(false);
    return () => {
      delivery?.close();
      if (!ended) controller.abort();
    };
  });
}

/** An `auth` failure whose credentials the binding refused by itself and that are renewed (see {@link renewAfterRefusal}). */
function renewed(failure: A2AError, signal: AbortSignal): boolean {
  return failure.kind === 'auth' && renewAfterRefusal(signal);
}
