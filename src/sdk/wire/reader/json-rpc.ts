import { Observable, type Subscriber } from 'rxjs';
import { classifySdkError, type CallContext } from '../classify/sdk-errors.js';
import { frameValue, type FrameCall, type StreamMapping } from './frame.js';
import { eventStream, refusal } from './refusal.js';
import { readSse, type SseSink } from '../../http/sse.js';
import type { StreamIds } from './results.js';
import { callFor, type Caller } from '../../http/credentials/callers.js';

export type { StreamMapping } from './frame.js';

/** One JSON-RPC streaming call: where, what, and in which protocol generation. */
export interface StreamRequest {
  endpoint: string;
  method: string;
  params: unknown;
  /** `1.0` or `0.3`: the `A2A-Version` header. */
  version: string;
  /** The task the call is about, when known (a resubscribe): it fills updates that name none. */
  taskId?: string;
}

/** How the reader reaches the agent and what it refuses. */
export interface ReaderOptions {
  fetch: typeof fetch;
  /** The largest SSE event, in characters. */
  maxEventChars: number;
  /** The turn's own headers (its trace context), under the reader's. */
  headers?: Readonly<Record<string, string>>;
  /** Whom the call is for: its credentials are made for them (see {@link callFor}). */
  caller?: Caller;
}

/** How long a body whose last word was read may take to end before the request is aborted after all. */
export const DRAIN_MS = 500;

/**
 * The id of the next JSON-RPC call, shared by every client in the process: deliberately process-wide.
 * An id need only be distinct among the calls of one connection, and each streamed call is its own
 * request whose frames are checked against its own id; a single counter makes every id distinct
 * anyway, costs nothing per client, and keeps the reader's options free of a per-client counter.
 */
let processWideRpcId = 1;

/** The id of the next JSON-RPC call the reader makes (see the process-wide counter above). */
export function nextRpcId(): number {
  return processWideRpcId++;
}

/**
 * A JSON-RPC stream (SendStreamingMessage / message/stream, SubscribeToTask / tasks/resubscribe)
 * read by the client itself instead of the SDK, where the SDK refuses bytes that carry a clear
 * event: an upper-case or parameterised `text/event-stream`, CR line endings, a U+001E before the
 * JSON, an id echoed as `"1"` for `1`, results without `kind`, updates without `taskId`.
 *
 * Cold: the request starts on subscribe and is aborted on unsubscribe (unless the last value was
 * the stream's last word: see {@link StreamMapping.ends}). Each result is emitted through `mapping`;
 * a graceful end completes; every failure (the mapping's too) is an {@link A2AError} named after `site`.
 */
export function readStream<T>(options: ReaderOptions, request: StreamRequest, site: CallContext, mapping: StreamMapping<T>): Observable<T> {
  return new Observable<T>((subscriber) => {
    const stream = new JsonRpcStream(subscriber, options, request, site, mapping);
    stream.run().catch((error: unknown) => stream.fail(error));
    return () => stream.teardown();
  });
}

/** The least time between two signs of life emitted: enough for any idle clock, no cost on a fast stream. */
const ALIVE_MS = 100;

/**
 * One subscription's call: its id, what its stream has told so far, and where it stands. It is the
 * SSE sink itself, so that each event costs a method call and no closure.
 */
class JsonRpcStream<T> implements SseSink, FrameCall {
  private readonly controller = new AbortController();
  readonly id = nextRpcId();
  /** The id as frames echo it, made once rather than per frame (or the one the stream's frames carry: see {@link frameValue}). */
  echo = String(this.id);
  numbered = false;
  readonly ids: StreamIds;
  /** Completed or failed: nothing is left to abort. */
  private ended = false;
  /** The last value emitted was the stream's last word (see {@link StreamMapping.ends}). */
  private lastWord = false;
  private drain: ReturnType<typeof setTimeout> | undefined;
  private lastAlive = 0;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly options: ReaderOptions,
    private readonly request: StreamRequest,
    private readonly site: CallContext,
    private readonly mapping: StreamMapping<T>,
  ) {
    this.ids = request.taskId === undefined ? {} : { taskId: request.taskId };
    callFor(this.controller.signal, options.caller);
  }

  /** Opens the request, refuses an answer that is no event stream, and reads the events to the body's end. */
  async run(): Promise<void> {
    const response = await this.open();
    const body = eventStream(response);
    if (body === null) {
      const { error, status, retryAfterMs } = await refusal(response);
      return this.fail(error, status, retryAfterMs);
    }
    await readSse(body, this, this.options.maxEventChars);
    this.settle();
    this.subscriber.complete();
  }

  /** The request: this call's JSON-RPC envelope, asking for an event stream, aborted with the subscription. */
  private open(): Promise<Response> {
    const { request, options } = this;
    return options.fetch(request.endpoint, {
      method: 'POST',
      headers: { ...options.headers, 'Content-Type': 'application/json', Accept: 'text/event-stream', 'A2A-Version': request.version },
      body: JSON.stringify({ jsonrpc: '2.0', method: request.method, params: request.params, id: this.id }),
      signal: this.controller.signal,
    });
  }

  /** One event: its value emitted, unless the consumer has left (a drain reads on and drops it). */
  data(data: string): void {
    if (this.subscriber.closed) return;
    const value = frameValue(data, this, this.mapping);
    if (this.mapping.ends !== undefined) this.lastWord = this.mapping.ends(value);
    this.subscriber.next(value);
  }

  /** A sign of life, emitted at most once per {@link ALIVE_MS}: timed here and not per event. */
  alive(): void {
    const alive = this.mapping.alive;
    if (alive === undefined || this.subscriber.closed) return;
    const now = Date.now();
    if (now - this.lastAlive < ALIVE_MS) return;
    this.lastAlive = now;
    this.subscriber.next(alive);
  }

  /** Any failure, the request's, the body's or the mapping's: the request aborted, the error classified (unless the consumer left). */
  fail(error: unknown, status?: number, retryAfterMs?: number): void {
    const aborted = this.controller.signal.aborted;
    this.settle();
    this.controller.abort(); // a refused or broken body is not read on
    if (this.subscriber.closed || aborted) return;
    const site = { ...this.site, ...(status === undefined ? {} : { status }), ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
    this.subscriber.error(classifySdkError(error, site));
  }

  /** The consumer left: the request aborted, or, after the agent's last word, its body drained for a while. */
  teardown(): void {
    if (this.ended) return;
    if (!this.lastWord) return this.controller.abort();
    // The agent has said its last word: its body is about to end; what still comes is dropped.
    this.drain = setTimeout(() => this.controller.abort(), DRAIN_MS);
  }

  /** The call is over: teardown has nothing left to abort, and a drain's timer is not needed. */
  private settle(): void {
    this.ended = true;
    if (this.drain !== undefined) clearTimeout(this.drain);
  }
}
