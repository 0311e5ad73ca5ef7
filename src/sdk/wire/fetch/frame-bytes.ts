/**
 * The byte searches of the frame mender (stream-frames.ts), on a stream's chunks as they come: no text
 * is made of a chunk that needs no mending.
 */

/** Line feed and carriage return, the ends of an SSE line. */
export const LF = 10;
export const CR = 13;

/**
 * The end of `"message":"`, searched for first: its first byte, `g`, is rare in what a stream sends (of
 * the members of A2A's events only `message` and `messageId` have one), so Node's search passes quickly
 * over the bytes that cannot begin it.
 */
const TAIL = new TextEncoder().encode('ge":"');
/** What must come before {@link TAIL}: `"messa`. */
const HEAD = new TextEncoder().encode('"messa');

type NodeBuffer = { from(data: ArrayBufferLike, offset: number, length: number): { indexOf(value: Uint8Array, from?: number): number } };

/**
 * True when `bytes` surely hold no `"message":"`: Node's Buffer searches the same memory (no text
 * made); elsewhere nothing is known (false), and the decoded text is searched instead (stream-frames.ts's FrameMender).
 */
export function lacksQuotedMessage(bytes: Uint8Array): boolean {
  const buffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;
  if (buffer === undefined) return false;
  try {
    // Both sides as the global Buffer's own: a browser's polyfill (the npm `buffer`) searches for a Buffer only.
    const view = buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const tail = buffer.from(TAIL.buffer, TAIL.byteOffset, TAIL.byteLength) as unknown as Uint8Array;
    for (let at = view.indexOf(tail); at !== -1; at = view.indexOf(tail, at + 1)) {
      if (at >= HEAD.length && HEAD.every((byte, i) => bytes[at - HEAD.length + i] === byte)) return false;
    }
    return true;
  } catch {
    return false; // a global Buffer that cannot search: nothing is known, and the text is searched instead
  }
}

/** The index of the last LF or CR in `bytes`, or -1. */
export function lastLineEnd(bytes: Uint8Array): number {
  for (let i = bytes.length - 1; i >= 0; i--) {
    const byte = bytes[i];
    if (byte === LF || byte === CR) return i;
  }
  return -1;
}
