/**
 * The official A2A SDK (@a2a-js/sdk, which this library uses on the wire) calls the global `Buffer`
 * of Node when it decodes a file part sent as raw bytes, and when it translates data parts for
 * v0.3 agents. Browsers have no `Buffer`, so such a reply fails with
 * `ReferenceError: Buffer is not defined`. The npm `buffer` package is a faithful browser copy of
 * it; putting it on `globalThis` makes those paths work (about 9 KB gzip).
 *
 * Import this module first, before anything that loads the library: the import order is the
 * evaluation order, so `Buffer` exists before any SDK code can run.
 */
import { Buffer } from 'buffer';

/**
 * One gap in the copy: Node's `buf.indexOf(value)` takes any Uint8Array as `value`, the package's
 * only its own Buffer (anything else throws `val must be string, number or Buffer`). The library's
 * stream reader, when a global `Buffer` exists, searches a stream's bytes with a Uint8Array (its frame
 * mender, src/sdk/wire/fetch/frame-bytes.ts), so a stream through it failed in the page. Such a value
 * (a few bytes to look for) is copied into a Buffer first, and found as Node finds it.
 */
const indexOf = Buffer.prototype.indexOf;
Buffer.prototype.indexOf = function (
  this: Buffer,
  value: string | number | Uint8Array,
  ...rest: [number?, Parameters<typeof indexOf>[2]?]
) {
  const needle = value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value;
  return indexOf.call(this, needle as string | number | Buffer, ...rest);
};

// The cast: a browser project has no `Buffer` global type (and @types/node's differs from the package's).
(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;
