import { SseLines, type SseEvents } from './sse-lines.js';
import { A2AError } from '../../errors.js';

/** The largest SSE event, in characters: the SDK's own bound on one event (S10), kept by our readers too. */
export const MAX_SSE_EVENT_CHARS = 4 * 2 ** 20;

/** What an SSE body delivers: each event's data, and a sign of life for anything else. */
export interface SseSink {
  /** One event's data (the JSON-RPC envelope), with a leading U+001E record separator removed. */
  data(data: string): void;
  /** A comment (`: ping`) or any other bytes that carried no event: the server is alive. */
  alive(): void;
}

/**
 * Reads an SSE body to its end, tolerantly: CR, LF and CRLF line endings (the SSE spec allows all
 * three; a CR ends its event at once), data lines whose payload starts with U+001E (some servers frame
 * JSON as RFC 7464 text sequences), empty `data:` keep-alives skipped. An event larger than
 * `maxEventChars` is refused. Resolves when the body ends (see {@link SseLines.end} for its last event);
 * rejects when it breaks or an event is too large.
 */
export async function readSse(body: ReadableStream<Uint8Array>, sink: SseSink, maxEventChars: number): Promise<void> {
  const events = new SseDispatch(sink, maxEventChars);
  const lines = new SseLines(events, maxEventChars);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      events.dispatched = false;
      lines.feed(decoder.decode(value, { stream: true }));
      if (events.refused) throw events.refused;
      // Bytes that completed no event (a slow one dripping in) still say the server is alive.
      if (!events.dispatched) sink.alive();
    }
    lines.feed(decoder.decode());
    lines.end();
  } finally {
    reader.releaseLock();
  }
}

/** What the line reader finds, handed to the sink: one small object per stream, not three closures. */
class SseDispatch implements SseEvents {
  /** The last chunk completed an event. */
  dispatched = false;
  /** An event past the bound. */
  refused: A2AError | undefined;

  constructor(
    private readonly sink: SseSink,
    private readonly maxEventChars: number,
  ) {}

  event(data: string): void {
    const payload = data.charCodeAt(0) === 0x1e ? data.slice(1) : data;
    this.dispatched = true;
    if (payload.trim() === '') this.sink.alive();
    else this.sink.data(payload);
  }

  comment(): void {
    this.sink.alive();
  }

  tooLarge(): void {
    this.refused ??= tooLarge(this.maxEventChars);
  }
}

function tooLarge(maxEventChars: number): A2AError {
  return new A2AError({ kind: 'protocol', message: `an SSE event is larger than ${maxEventChars} characters` });
}
