import { boundedResponse } from './body-limit.js';
import { framedRefusal } from './framed-refusal.js';
import { jsonAsStream } from './json-as-stream.js';
import { tolerantReply } from '../reader/replies.js';
import { markAppends } from './rest-append.js';
import { mendedStream } from './stream-frames.js';
import { retryAfterOf } from '../../http/retry-after.js';

/**
 * The fetch under the SDK. It remembers the HTTP status of each call's response (and a 429's or 503's
 * `Retry-After`), keyed by the call's abort signal, so an error the SDK reports only as text ("HTTP
 * error … 405") can still be classified by its status, and say when to try again.
 */
export class ResponseWatch {
  private readonly statuses = new WeakMap<AbortSignal, number>();
  private readonly retryAfters = new WeakMap<AbortSignal, number>();
  private readonly own = new WeakSet<AbortSignal>();

  constructor(
    private readonly base: typeof fetch,
    /** The largest answer read whole (see {@link boundedResponse}). */
    readonly maxResponseBytes = Number.POSITIVE_INFINITY,
  ) {}

  /**
   * The fetch handed to the SDK: it notes each status, bounds every answer read whole, keeps HTTP+JSON
   * `append` flags, reads JSON-RPC replies tolerantly (see {@link tolerantReply}), hands a stream
   * call answered with one JSON body on as a stream of that one answer (see {@link jsonAsStream}), and
   * one refused with an SSE frame not typed as a stream on as the JSON error it is (see {@link framedRefusal}),
   * and a JSON-RPC stream's frames with the call's id and no string status message (see {@link mendedStream}).
   * A call whose caller reads its answer itself ({@link readsItself}) gets it as it came.
   */
  readonly fetch: typeof fetch = async (input, init) => {
    const response = await this.base(input, init);
    if (init?.signal && this.own.has(init.signal)) return response;
    if (init?.signal) {
      this.statuses.set(init.signal, response.status);
      const retryAfterMs = retryAfterOf(response);
      if (retryAfterMs === undefined) this.retryAfters.delete(init.signal);
      else this.retryAfters.set(init.signal, retryAfterMs);
    }
    const bounded = boundedResponse(response, this.maxResponseBytes);
    const read = await tolerantReply(init, markAppends(String(input instanceof Request ? input.url : input), bounded));
    return mendedStream(init, await framedRefusal(init, await jsonAsStream(init, read)));
  };

  /**
   * The call of `signal` reads its answer itself (the client's own reader: bounded, tolerant, its
   * status and `Retry-After` its own): the answer is passed on as it came, nothing noted or read first.
   */
  readsItself(signal: AbortSignal): void {
    this.own.add(signal);
  }

  statusOf(signal: AbortSignal): number | undefined {
    return this.statuses.get(signal);
  }

  /** The `Retry-After` of the call's answer, when it was a 429 or 503 that named one (milliseconds from when it came). */
  retryAfterOf(signal: AbortSignal): number | undefined {
    return this.retryAfters.get(signal);
  }
}
