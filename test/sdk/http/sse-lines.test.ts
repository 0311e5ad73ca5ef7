import { createParser } from 'eventsource-parser';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SseLines } from '../../../src/sdk/http/sse-lines.js';

type Seen = ['event', string] | ['comment'] | ['too-large'];

function ours(chunks: readonly string[], max = 1_000_000): Seen[] {
  const seen: Seen[] = [];
  const lines = new SseLines(
    { event: (data) => seen.push(['event', data]), comment: () => seen.push(['comment']), tooLarge: () => seen.push(['too-large']) },
    max,
  );
  for (const chunk of chunks) lines.feed(chunk);
  lines.end();
  return seen;
}

/** eventsource-parser, the reference for the SSE rules (the reader used it before its own). */
function reference(chunks: readonly string[]): Seen[] {
  const seen: Seen[] = [];
  const parser = createParser({ onEvent: (event) => seen.push(['event', event.data]), onComment: () => seen.push(['comment']) });
  for (const chunk of chunks) parser.feed(chunk);
  return seen;
}

const eol = fc.constantFrom('\n', '\r', '\r\n');
const value = fc.string({ unit: fc.constantFrom('a', ' ', ':', '{', '"', 'é', '𝄞', '\u001e') });
/** A line of a stream, as a server might write it (without its ending). */
const line = fc.oneof(
  value.map((v) => `data: ${v}`),
  value.map((v) => `data:${v}`),
  fc.constant('data'),
  value.map((v) => `: ${v}`),
  value.map((v) => `event: ${v}`),
  fc.constantFrom('id: 7', 'retry: 1000', 'database: no', 'dat', 'data-x: no'),
);
/** An event: its lines, each with its own ending, then a blank line. */
const event = fc
  .tuple(fc.array(fc.tuple(line, eol), { minLength: 1, maxLength: 4 }), eol)
  .map(([lines, end]) => lines.map(([text, ending]) => text + ending).join('') + end);
/** A stream of events ending with LF (so the reference, which waits after a CR, has seen all), cut anywhere. */
const stream = fc
  .array(event, { maxLength: 8 })
  .map((events) => `${events.join('')}data: last\n\n`)
  .chain((text) =>
    fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, text.length - 1) }), { maxLength: 12 }).map((cuts) => {
      const at = [0, ...cuts.sort((a, b) => a - b), text.length];
      return at.slice(1).map((end, i) => text.slice(at[i], end));
    }),
  );

describe('our SSE line reader', () => {
  it('reads any stream, cut into any chunks, as the SSE rules (eventsource-parser) do', () => {
    fc.assert(
      fc.property(stream, (chunks) => {
        expect(ours(chunks)).toEqual(reference(chunks));
      }),
      { numRuns: 2_000 },
    );
  });

  it('ends an event at a CR at once: a CR-only server is not held back until its next byte', () => {
    const seen: string[] = [];
    const lines = new SseLines({ event: (data) => seen.push(data), comment: () => undefined, tooLarge: () => undefined }, 1_000);
    lines.feed('data: one\r\r');
    expect(seen).toEqual(['one']); // eventsource-parser waits here for a possible LF
    lines.feed('\ndata: two\r\n\r\n'); // the LF after a chunk's last CR is that CR's pair, not a blank line
    expect(seen).toEqual(['one', 'two']);
  });

  it('skips a leading byte order mark, as the SSE rules say (eventsource-parser reads it as part of a field name)', () => {
    expect(ours(['\ufeffdata: one\n\n'])).toEqual([['event', 'one']]);
  });

  it('at the end of the body: dispatches an event whose blank line never came, drops a line the end cut off', () => {
    expect(ours(['data: final\n'])).toEqual([['event', 'final']]);
    expect(ours(['data: final\r'])).toEqual([['event', 'final']]);
    expect(ours(['data: first\n\ndata: cut off'])).toEqual([['event', 'first']]);
  });

  it('refuses a line or an event past the bound, once, and reads nothing after', () => {
    expect(ours(['data: ' + 'x'.repeat(50), '\n\ndata: next\n\n'], 20)).toEqual([['too-large']]);
    expect(ours(['data: 0123456789\ndata: 0123456789\n\n'], 20)).toEqual([['too-large']]);
    expect(ours(['data: 0123456789\n\n'], 20)).toEqual([['event', '0123456789']]);
  });
});
