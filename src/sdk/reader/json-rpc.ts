import { Observable } from 'rxjs';
import type { StreamResponse } from '@a2a-js/sdk';
import { A2AError } from '../../errors.js';
import { classifySdkError, type CallContext } from '../errors.js';
import { wireMeaning } from '../wire-errors.js';
import { readSse } from './sse.js';
import { toStreamResponse, type StreamIds } from './results.js';

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
}

/** What becomes of each result of a stream, and which result is its last word. */
export interface StreamMapping<T> {
  /** Each result, as the SDK's `StreamResponse`, to what the caller emits. */
  map: (response: StreamResponse) => T;
  /**
   * The same, straight from a result's JSON, for the shapes it knows (undefined for any other, which
   * then takes `map`); it must give what `map` gives and remember the same ids.
   */
  fast?: (result: unknown, ids: StreamIds) => T | undefined;
  /** Emitted for a sign of life (an SSE comment, bytes that completed no event), at most one per 100 ms. */
  alive?: T;
  /**
   * True for a value after which the agent has nothing more to say (a settled task). When the
   * consumer leaves right after such a value, the rest of the body is read and dropped rather than
   * the request aborted, so the connection goes back to the pool (an aborted body costs a socket).
   */
  ends?: (value: T) => boolean;
}

/** How long a body whose last word was read may take to end before the request is aborted after all. */
export const DRAIN_MS = 500;

let nextId = 1;

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
  const { map, fast, alive, ends } = mapping;
  return new Observable<T>((subscriber) => {
    const controller = new AbortController();
    const id = nextId++;
    const ids: StreamIds = request.taskId === undefined ? {} : { taskId: request.taskId };
    let ended = false;
    let lastWord = false;
    let drain: ReturnType<typeof setTimeout> | undefined;
    let lastAlive = 0;
    const fail = (error: unknown, status?: number): void => {
      const aborted = controller.signal.aborted;
      ended = true;
      if (drain !== undefined) clearTimeout(drain);
      controller.abort(); // a refused or broken body is not read on
      if (subscriber.closed || aborted) return;
      subscriber.error(classifySdkError(error, status === undefined ? site : { ...site, status }));
    };
    const run = async (): Promise<void> => {
      const response = await options.fetch(request.endpoint, {
        method: 'POST',
        headers: { ...options.headers, 'Content-Type': 'application/json', Accept: 'text/event-stream', 'A2A-Version': request.version },
        body: JSON.stringify({ jsonrpc: '2.0', method: request.method, params: request.params, id }),
        signal: controller.signal,
      });
      const type = response.headers.get('content-type')?.toLowerCase() ?? '';
      if (!response.ok || !type.startsWith('text/event-stream') || response.body === null) {
        const text = await readCapped(response, MAX_ERROR_BODY);
        const envelope = parseJson(text);
        const error = envelope !== undefined && envelope !== null && isError(envelope) ? rpcError(envelope.error) : undefined;
        // A2A's own refusals are read as such; any other failure by its HTTP status, as on the SDK's path.
        if (error !== undefined && (error.kind !== 'protocol' || response.ok)) return fail(error, response.status);
        if (!response.ok) return fail(httpError(response.status, error), response.status);
        return fail(
          new A2AError({ kind: 'protocol', message: `the stream's Content-Type is ${type || 'missing'}, not text/event-stream` }),
        );
      }
      await readSse(
        response.body,
        {
          data: (data) => {
            if (subscriber.closed) return;
            const envelope = parseJson(data);
            if (envelope === undefined || typeof envelope !== 'object' || envelope === null) {
              throw new A2AError({ kind: 'protocol', message: `malformed frame: not JSON (${data.slice(0, 80)})` });
            }
            if (isError(envelope)) throw rpcError(envelope.error);
            const echoed = (envelope as { id?: unknown }).id;
            if (echoed !== undefined && echoed !== null && String(echoed) !== String(id)) {
              throw new A2AError({
                kind: 'protocol',
                message: `a frame of another JSON-RPC call (id ${JSON.stringify(echoed)}, not ${id})`,
              });
            }
            if (!('result' in envelope))
              throw new A2AError({ kind: 'protocol', message: 'malformed frame: a JSON-RPC response without a result' });
            const result = (envelope as { result: unknown }).result;
            const value = fast?.(result, ids) ?? map(toStreamResponse(result, ids));
            if (ends !== undefined) lastWord = ends(value);
            subscriber.next(value);
          },
          alive: () => {
            // At most one per 100 ms, timed here and not per event: enough for any idle clock, no cost on a fast stream.
            if (alive === undefined || subscriber.closed) return;
            const now = Date.now();
            if (now - lastAlive < 100) return;
            lastAlive = now;
            subscriber.next(alive);
          },
        },
        options.maxEventChars,
      );
      ended = true;
      if (drain !== undefined) clearTimeout(drain);
      subscriber.complete();
    };
    run().catch((error: unknown) => fail(error));
    return () => {
      if (ended) return;
      if (!lastWord) return controller.abort();
      // The agent has said its last word: its body is about to end; what still comes is dropped.
      drain = setTimeout(() => controller.abort(), DRAIN_MS);
    };
  });
}

/** The most of a refused answer's body that is read: enough for any JSON-RPC error. */
const MAX_ERROR_BODY = 64 * 1024;

/** The body's text, read no further than `max` bytes (the rest is cancelled). */
async function readCapped(response: Response, max: number): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let read = 0; read < max;) {
      const { done, value } = await reader.read();
      if (done) break;
      read += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return text;
  } finally {
    void reader.cancel().catch(() => undefined);
  }
  return text;
}

/**
 * A refused answer as the SDK's path reads it: by its HTTP status (404/405/501 unsupported, 408/429/5xx
 * retryable), keeping a generic JSON-RPC error's code; under any other status, a protocol error with both.
 */
function httpError(status: number, error: A2AError | undefined): Error {
  const meaning = wireMeaning('http', status);
  if (error === undefined || meaning?.kind === 'unsupported') return new Error(`HTTP ${status}${error ? `: ${error.message}` : ''}`);
  const transient = meaning?.retryable === true;
  return new A2AError({
    kind: transient ? 'http' : 'protocol',
    retryable: transient,
    status,
    ...(error.code === undefined ? {} : { code: error.code }),
    message: `failed with HTTP ${status}: ${error.message}`,
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isError(envelope: unknown): envelope is { error: { code?: unknown; message?: unknown; data?: unknown } } {
  const error = (envelope as { error?: unknown }).error;
  return typeof error === 'object' && error !== null;
}

/** A JSON-RPC error as the ladder reads it: by its code's row in the wire table, as the SDK's errors are (`errors.ts`). */
function rpcError(error: { code?: unknown; message?: unknown }): A2AError {
  const code = typeof error.code === 'number' ? error.code : undefined;
  const said = typeof error.message === 'string' ? error.message : 'no message';
  const meaning = wireMeaning('json-rpc', code);
  switch (meaning?.kind) {
    case 'task-not-found':
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the agent does not know the task (${said})`,
      });
    case 'auth':
      // The agent's own words are left out: an agent could echo the credential back.
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the agent refused the credentials (JSON-RPC ${code})`,
      });
    case 'unsupported':
      return new A2AError({ kind: meaning.kind, retryable: meaning.retryable, code, message: `not supported by the agent (${said})` });
    default:
      return new A2AError({
        kind: 'protocol',
        ...(code === undefined ? {} : { code }),
        message: `the agent answered with an error: ${said}`,
      });
  }
}
