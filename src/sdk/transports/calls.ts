import { Observable } from 'rxjs';
import type { A2AOperation, AuthDetails } from '../../errors.js';
import { classifySdkError } from '../classify/sdk-errors.js';
import type { ResponseWatch } from '../fetch/response-watch.js';

/** Where a call goes, as its errors name it, and the watch that saw its status. */
export interface CallSite {
  operation: A2AOperation;
  agent: string;
  watch: ResponseWatch;
  auth?: AuthDetails;
}

/**
 * One SDK promise call as a cold Observable: the call starts on subscribe with its own
 * AbortController, aborted on teardown; its failure is classified into an A2AError.
 */
export function unaryCall<T>(site: CallSite, run: (signal: AbortSignal) => Promise<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    let settled = false;
    // An SDK method that throws before its promise (a capability its client checks on the card) fails like one that rejects.
    new Promise<T>((resolve) => resolve(run(controller.signal))).then(
      (value) => {
        settled = true;
        subscriber.next(value);
        subscriber.complete();
      },
      (error: unknown) => {
        settled = true;
        if (controller.signal.aborted) return;
        subscriber.error(classifySdkError(error, { ...site, status: site.watch.statusOf(controller.signal) }));
      },
    );
    // Abort only a call still in flight: aborting a finished one costs a DOMException for nothing.
    return () => {
      if (!settled) controller.abort();
    };
  });
}

/**
 * One SDK stream as a cold Observable of mapped events. Unsubscribing aborts the request (an idle
 * stream is not left waiting for its next chunk); a graceful close completes; a drop errors.
 */
export function streamCall<S, T>(site: CallSite, open: (signal: AbortSignal) => AsyncIterable<S>, map: (event: S) => T): Observable<T> {
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    let ended = false;
    const pump = async (): Promise<void> => {
      for await (const event of open(controller.signal)) {
        if (subscriber.closed) return;
        subscriber.next(map(event));
      }
      ended = true;
      subscriber.complete();
    };
    pump().catch((error: unknown) => {
      ended = true;
      if (subscriber.closed || controller.signal.aborted) return;
      subscriber.error(classifySdkError(error, { ...site, status: site.watch.statusOf(controller.signal) }));
    });
    return () => {
      if (!ended) controller.abort();
    };
  });
}
