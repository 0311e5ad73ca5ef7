import { Observable } from 'rxjs';
import type { A2AOperation, AuthDetails } from '../errors.js';
import { boundedResponse } from './body-limit.js';
import { framedRefusal } from './framed-refusal.js';
import { jsonAsStream } from './json-as-stream.js';
import { tolerantReply } from './reader/replies.js';
import { markAppends } from './rest-append.js';
import { classifySdkError } from './errors.js';

/**
 * The fetch under the SDK. It remembers the HTTP status of each call's response, keyed by the call's abort signal, so an error
 * the SDK reports only as text ("HTTP error … 405") can still be classified by its status.
 */
export class ResponseWatch {
  private readonly statuses = new WeakMap<AbortSignal, number>();

  constructor(
    private readonly base: typeof fetch,
    /** The largest answer read whole (see {@link boundedResponse}). */
    private readonly maxResponseBytes = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * The fetch handed to the SDK: it notes each status, bounds every answer read whole, keeps HTTP+JSON
   * `append` flags, reads JSON-RPC replies tolerantly (see {@link tolerantReply}), hands a stream
   * call answered with one JSON body on as a stream of that one answer (see {@link jsonAsStream}), and
   * one refused with an SSE frame not typed as a stream on as the JSON error it is (see {@link framedRefusal}).
   */
  readonly fetch: typeof fetch = async (input, init) => {
    const response = await this.base(input, init);
    if (init?.signal) this.statuses.set(init.signal, response.status);
    const bounded = boundedResponse(response, this.maxResponseBytes);
    const read = await tolerantReply(init, markAppends(String(input instanceof Request ? input.url : input), bounded));
    return framedRefusal(init, await jsonAsStream(init, read));
  };

  statusOf(signal: AbortSignal): number | undefined {
    return this.statuses.get(signal);
  }
}

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
    run(controller.signal).then(
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
