/** What the SSE line reader hands on: each event's data, and each comment. */
export interface SseEvents {
  /** A dispatched event's data (its `data:` lines joined with LF); events without data are not dispatched. */
  event(data: string): void;
  /** A comment line (`: ping`). */
  comment(): void;
  /** The pending line or the event's data grew past the bound. */
  tooLarge(): void;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const BOM = 0xfeff;

/**
 * The `text/event-stream` parsing rules (WHATWG HTML §9.2.6) for what A2A streams carry: lines ended
 * by CRLF, LF or CR; `data:` lines joined with LF and dispatched at a blank line; comments; other
 * fields (`event`, `id`, `retry`) ignored; a leading BOM skipped. A CR ends its line at once — a LF
 * that follows it in the next chunk is its pair and skipped — so a CR-only server's events are not held
 * back waiting for the next byte. One small object per stream, no closure per call, and the data of a
 * `data:` line is sliced once, straight from the chunk.
 *
 * `maxChars` bounds the line in progress and the data of one event: past it, `tooLarge()` is called and
 * the rest of the input is ignored.
 */
export class SseLines {
  /** The start of a line that the last chunk did not finish. */
  private pending = '';
  private data = '';
  private hasData = false;
  /** The last chunk ended with a CR: a LF at the start of the next one belongs to it. */
  private afterCr = false;
  private started = false;
  private refused = false;

  constructor(
    private readonly events: SseEvents,
    private readonly maxChars: number,
  ) {}

  feed(chunk: string): void {
    if (this.refused || chunk === '') return;
    let start = 0;
    if (!this.started) {
      this.started = true;
      if (chunk.charCodeAt(0) === BOM) start = 1;
    }
    if (this.afterCr) {
      this.afterCr = false;
      if (chunk.charCodeAt(start) === LF) start++;
    }
    const length = chunk.length;
    // The next LF and CR at or after `start`, each searched again only once passed (-1: none left).
    let lf = chunk.indexOf('\n', start);
    let cr = chunk.indexOf('\r', start);
    while (start < length && !this.refused) {
      if (lf !== -1 && lf < start) lf = chunk.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = chunk.indexOf('\r', start);
      const end = lf === -1 ? cr : cr === -1 ? lf : Math.min(lf, cr);
      if (end === -1) break;
      this.line(chunk, start, end);
      start = end + 1;
      if (chunk.charCodeAt(end) === CR) {
        if (start === length) this.afterCr = true;
        else if (chunk.charCodeAt(start) === LF) start++;
      }
    }
    if (start < length && !this.refused) {
      this.pending += chunk.slice(start);
      if (this.pending.length > this.maxChars) this.refuse();
    }
  }

  /**
   * The body ended. An event whose last line ended but whose blank line never came is dispatched (a
   * sloppy server's last event is its final status); a line the end cut off is dropped, with its event.
   */
  end(): void {
    if (this.refused) return;
    if (this.pending === '') this.dispatch();
    this.pending = '';
  }

  /** One line: `chunk[start, end)`, after whatever the previous chunks left pending. */
  private line(chunk: string, start: number, end: number): void {
    let text = chunk;
    if (this.pending !== '') {
      text = this.pending + chunk.slice(start, end);
      this.pending = '';
      start = 0;
      end = text.length;
    }
    if (start === end) return this.dispatch();
    const first = text.charCodeAt(start);
    if (first === COLON) return this.events.comment();
    // Only `data` matters here: `data`, `data:` or `data: value` (one leading space dropped).
    if (end - start < 4 || !text.startsWith('data', start)) return;
    let value = '';
    if (end - start > 4) {
      if (text.charCodeAt(start + 4) !== COLON) return; // a field named e.g. `database`
      const from = start + (text.charCodeAt(start + 5) === SPACE && start + 5 < end ? 6 : 5);
      value = text.slice(from, end);
    }
    this.data = this.hasData ? `${this.data}\n${value}` : value;
    this.hasData = true;
    if (this.data.length > this.maxChars) this.refuse();
  }

  private dispatch(): void {
    if (!this.hasData) return;
    const data = this.data;
    this.data = '';
    this.hasData = false;
    this.events.event(data);
  }

  private refuse(): void {
    this.refused = true;
    this.pending = '';
    this.data = '';
    this.events.tooLarge();
  }
}
