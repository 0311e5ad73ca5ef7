/**
 * A body read within a bound: every body the client reads itself (the card, a JWKS, a unary answer,
 * a refusal, an OAuth endpoint's answer) is read by {@link readBody}; a body handed on to a reader not
 * ours (the SDK's) is bounded as it passes by {@link limitBody}, by the same rule.
 */

/** How a body is read within a bound, and what is thrown past it. */
export interface BodyLimit {
  /** The most bytes read. */
  maxBytes: number;
  /**
   * The error for a body past `maxBytes`: declared so by its `Content-Length` (no byte read) or counted
   * so as it comes (the rest cancelled). Without it the read is a glance: it stops at the chunk that
   * reaches `maxBytes`, a body that breaks off gives what came before it, and the rest is cancelled.
   */
  tooLarge?: () => Error;
  /** Ends the read: the body is cancelled when it aborts, and the next chunk throws `failed(signal.reason)`. */
  signal?: AbortSignal;
  /** The error a body that broke off (or the signal's end) throws; without it, what the read threw. */
  failed?: (cause: unknown) => Error;
}

/** A `Content-Length` over `maxBytes` (a finite one: no header, or none that is a number, declares nothing). */
function declaresMore(response: Response, maxBytes: number): boolean {
  const declared = Number(response.headers.get('content-length'));
  return Number.isFinite(declared) && declared > maxBytes;
}

/**
 * The body's text, read chunk by chunk no further than `limit.maxBytes`; a response without a body is
 * `''`. With `tooLarge`, a body declared or found past the bound throws it and is cancelled; without
 * it, see {@link BodyLimit.tooLarge}.
 */
export async function readBody(response: Response, limit: BodyLimit): Promise<string> {
  const { maxBytes, tooLarge } = limit;
  if (tooLarge !== undefined && declaresMore(response, maxBytes)) {
    void response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const cancel = (): void => void reader.cancel().catch(() => undefined);
  const { signal } = limit;
  // The fetch's own signal ends a body read in Node; a fetch that ignores it after the headers is ended here.
  signal?.addEventListener('abort', cancel, { once: true });
  try {
    return await (tooLarge === undefined ? glance(reader, maxBytes) : readWithin(reader, maxBytes, tooLarge, limit));
  } finally {
    signal?.removeEventListener('abort', cancel);
  }
}

/** The text to the body's end; past `maxBytes` the rest is cancelled and `tooLarge` thrown. */
async function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
  { signal, failed }: BodyLimit,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (let read = 0; ;) {
    let step: ReadableStreamReadResult<Uint8Array>;
    try {
      step = await reader.read();
    } catch (cause) {
      throw failed === undefined ? cause : failed(cause);
    }
    if (signal?.aborted) throw failed === undefined ? signal.reason : failed(signal.reason);
    if (step.done) return text + decoder.decode();
    read += step.value.byteLength;
    if (read > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    text += decoder.decode(step.value, { stream: true });
  }
}

/** The text of the chunks until the one that reaches `maxBytes` (or a break, or the end); the rest cancelled. */
async function glance(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (let read = 0; read < maxBytes;) {
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
 * The same response with its body bounded as it passes, for a reader not ours: a `Content-Length` over
 * `maxBytes` throws `tooLarge()` at once (the body cancelled unread); a body that grows past it errors
 * its stream with `tooLarge()` at that chunk.
 */
export function limitBody(response: Response, maxBytes: number, tooLarge: () => Error): Response {
  if (response.body === null) return response;
  if (declaresMore(response, maxBytes)) {
    void response.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge());
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}
