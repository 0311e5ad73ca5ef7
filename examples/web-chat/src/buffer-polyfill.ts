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

// The cast: a browser project has no `Buffer` global type (and @types/node's differs from the package's).
(globalThis as { Buffer?: unknown }).Buffer ??= Buffer;
