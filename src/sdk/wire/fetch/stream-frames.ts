import { isObject, rpcRequest } from '../reader/replies.js';
import { statusStringsIn } from '../mapping/status-text.js';
import { CR, lacksQuotedMessage, lastLineEnd, LF } from './frame-bytes.js';

/**
 * The longest line held back to be read whole (the SDK's own bound on one event is 4 MiB): past it,
 * the stream is handed on as it comes, nothing more mended.
 */
export const MAX_HELD_BYTES = 4 * 1024 * 1024;

/**
 * A JSON-RPC stream call's own event stream, mended for the SDK's reader where real servers bend the
 * wire as our reader reads them (`reader/frame.ts`):
 *
 * - ids: a frame without an id, with `null`, or with the request's id as another JSON type (`"1"` for
 *   `1`) is the call's; the first frame with another id sets the id of the stream (`@reactive-agents/a2a`
 *   0.9.0 numbers every frame of every stream `1`), and frames with it are the call's. Each is given the
 *   request's id. A frame with a third id, or with another after the request's own, is left for the SDK
 *   to refuse: a stream of mixed ids is no one call's. Once a frame said the request's id as the SDK
 *   wants it, the lines are no longer read for ids (a stream that speaks correctly costs one search per
 *   chunk): a later frame without an id is left as it came, and the SDK refuses it.
 * - a task status whose `message` is a plain string: a message with that one text part
 *   (`mapping/status-text.ts`).
 *
 * Only `data:` lines that hold a whole JSON frame are read; a frame split over several `data:` lines is
 * left as it came. Bytes pass through unchanged, but for a line that was mended; a line's start is held
 * until its end comes (a frame cannot be mended once sent), at most {@link MAX_HELD_BYTES}. Any other
 * answer (not an event stream, not a JSON-RPC stream call) is handed on as it came.
 */
export function mendedStream(init: RequestInit | undefined, response: Response): Response {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (response.body === null || !type.includes('text/event-stream')) return response;
  const request = rpcRequest(init?.body);
  if (request === undefined || request.id === undefined || request.id === null) return response;
  const mended = mendedBody(response.body, new FrameMender(request.id));
  return new Response(mended, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * The body as the mender hands it on: each read of the SDK's is one read of the body (or more, while a
 * line's end has not come), with no queue of its own — a `TransformStream` costs several times more per
 * chunk. A failed read fails the stream with the same error; a cancel cancels the body.
 */
function mendedBody(body: ReadableStream<Uint8Array>, mender: FrameMender): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) {
            const last = mender.end();
            if (last !== undefined) controller.enqueue(last);
            return controller.close();
          }
          const out = mender.chunk(value);
          if (out !== undefined) return controller.enqueue(out);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    },
    { highWaterMark: 0 },
  );
}

/** Whole lines read, a line mended only when it needs it (see {@link mendedStream}). */
class FrameMender {
  /** A frame that says the request's id as the SDK wants it begins so: read no further unless it may carry a string status. */
  private readonly head: string;
  /** The id the stream's numbered frames carry, as text, once one came. */
  private echo: string | undefined;
  /** The start of a line whose end has not come, in the pieces it came in (joined once its end comes). */
  private held: Uint8Array[] = [];
  private heldBytes = 0;
  /** Past the bound: everything is handed on as it comes. */
  private off = false;
  private readonly decoder = new TextDecoder();
  private readonly encoder = new TextEncoder();

  /** The request's id as text, as {@link echo} says it. */
  private readonly ownEcho: string;

  constructor(private readonly id: unknown) {
    this.head = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},`;
    this.ownEcho = String(id);
  }

  /** What to hand on of `chunk`: its whole lines (with the start held before them), mended; undefined while a line's end has not come. */
  chunk(chunk: Uint8Array): Uint8Array | undefined {
    if (this.off) return chunk;
    const cut = lastLineEnd(chunk);
    if (cut === -1) {
      this.hold(chunk);
      return this.heldBytes > MAX_HELD_BYTES ? this.giveUp() : undefined;
    }
    const whole = this.released(cut + 1 === chunk.length ? chunk : chunk.subarray(0, cut + 1));
    if (cut + 1 < chunk.length) this.hold(chunk.slice(cut + 1));
    if (this.echo === this.ownEcho && lacksQuotedMessage(whole)) return whole;
    // A line end is never inside a UTF-8 sequence: whole lines decode alone.
    const mended = this.mend(this.decoder.decode(whole));
    return mended === undefined ? whole : this.encoder.encode(mended);
  }

  /** The body ended: the line it cut off, mended if it is a whole frame. */
  end(): Uint8Array | undefined {
    if (this.heldBytes === 0) return undefined;
    const last = this.released(new Uint8Array(0));
    if (this.off) return last;
    const mended = this.mend(this.decoder.decode(last));
    return mended === undefined ? last : this.encoder.encode(mended);
  }

  private hold(bytes: Uint8Array): void {
    this.held.push(bytes);
    this.heldBytes += bytes.length;
  }

  /** What was held, then `bytes`, as one array; nothing is held after. */
  private released(bytes: Uint8Array): Uint8Array {
    if (this.heldBytes === 0) return bytes;
    const all = new Uint8Array(this.heldBytes + bytes.length);
    let at = 0;
    for (const piece of [...this.held, bytes]) {
      all.set(piece, at);
      at += piece.length;
    }
    this.held = [];
    this.heldBytes = 0;
    return all;
  }

  /** Past the bound: what came so far as it came, and all that follows. */
  private giveUp(): Uint8Array {
    this.off = true;
    return this.released(new Uint8Array(0));
  }

  /**
   * The lines of `text` (whole lines) with each `data:` frame that needed it mended, or undefined when
   * none did. Each line is passed over once: its end found, its start compared; the CR and
   * `"message":"` searches are made again only once the reading has passed what they found.
   */
  private mend(text: string): string | undefined {
    // A stream numbered with the request's id needs no line read for its ids: one search tells that no
    // status message in these lines can be a string.
    if (this.echo === this.ownEcho && !text.includes('"message":"')) return undefined;
    let out: string | undefined;
    let copied = 0;
    let lf = -2;
    let cr = -2;
    let quoted = -2;
    for (let line = 0; line < text.length;) {
      if (lf !== -1 && lf < line) lf = text.indexOf('\n', line);
      if (cr !== -1 && cr < line) cr = text.indexOf('\r', line);
      const end = lf === -1 ? (cr === -1 ? text.length : cr) : cr === -1 ? lf : Math.min(lf, cr);
      const next = text.charCodeAt(end) === CR && text.charCodeAt(end + 1) === LF ? end + 2 : end + 1;
      const at = line;
      line = next;
      if (!text.startsWith('data:', at)) continue;
      const start = text.charCodeAt(at + 5) === 32 ? at + 6 : at + 5;
      if (this.ownHead(text, start)) {
        // Only a string after a `message` member can be a status message given as a string.
        if (quoted !== -1 && quoted < start) quoted = text.indexOf('"message":"', start);
        if (quoted === -1 || quoted >= end) continue;
      }
      const frame = this.frame(text.slice(start, end));
      if (frame === undefined) continue;
      out = (out ?? '') + text.slice(copied, start) + frame;
      copied = end;
    }
    return out === undefined ? undefined : out + text.slice(copied);
  }

  /** The frame at `start` begins as the request's own does, in a stream whose frames are the request's (or unnumbered yet). */
  private ownHead(text: string, start: number): boolean {
    if (!text.startsWith(this.head, start)) return false;
    if (this.echo === undefined) this.echo = this.ownEcho;
    return this.echo === this.ownEcho;
  }

  /** One frame mended, or undefined when it is left as it came. */
  private frame(data: string): string | undefined {
    let envelope: unknown;
    try {
      envelope = JSON.parse(data);
    } catch {
      return undefined;
    }
    // Something that is no JSON-RPC response (a bare CloudEvent has an id too) is left for the SDK to refuse.
    if (!isObject(envelope) || !('jsonrpc' in envelope || 'result' in envelope || 'error' in envelope)) return undefined;
    let changed = this.renumbered(envelope);
    const result = envelope['result'];
    if (isObject(result)) changed = statusStringsIn(result) || changed;
    return changed ? JSON.stringify(envelope) : undefined;
  }

  /** The frame's id made the request's when the frame is the call's (see {@link mendedStream}); true when it was changed. */
  private renumbered(envelope: Record<string, unknown>): boolean {
    const said = envelope['id'];
    if (said === this.id) {
      this.echo ??= String(said);
      return false;
    }
    if (said !== undefined && said !== null) {
      const text = String(said);
      if (this.echo === undefined) this.echo = text;
      else if (this.echo !== text) return false;
    } else if (this.echo === this.ownEcho) {
      // Lines are no longer read for their ids (see mend): left as it came, whichever line it is in.
      return false;
    }
    envelope['id'] = this.id;
    return true;
  }
}
