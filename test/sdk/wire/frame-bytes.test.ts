import { Buffer as PolyfillBuffer } from 'buffer';
import { afterEach, describe, expect, it } from 'vitest';
import { lacksQuotedMessage } from '../../../src/sdk/wire/fetch/frame-bytes.js';

// The fast check that a chunk of a stream holds no `"message":"`, with Node's Buffer and with a browser's polyfill.

const bytes = (text: string) => new TextEncoder().encode(text);
const node = globalThis.Buffer;
afterEach(() => {
  (globalThis as { Buffer?: unknown }).Buffer = node;
});

describe('lacksQuotedMessage', () => {
  it("with Node's Buffer: true only when no quoted message is there", () => {
    expect(lacksQuotedMessage(bytes('{"kind":"status-update","taskId":"t"}'))).toBe(true);
    expect(lacksQuotedMessage(bytes('{"status":{"message":"hi"}}'))).toBe(false);
  });

  it('with the npm buffer polyfill a page installs (its indexOf takes a Buffer only): the same answers, no throw', () => {
    (globalThis as { Buffer?: unknown }).Buffer = PolyfillBuffer;
    expect(lacksQuotedMessage(bytes('{"kind":"status-update","taskId":"t"}'))).toBe(true);
    expect(lacksQuotedMessage(bytes('{"status":{"message":"hi"}}'))).toBe(false);
  });

  it('with no Buffer, or one that cannot search: nothing is known (false)', () => {
    (globalThis as { Buffer?: unknown }).Buffer = undefined;
    expect(lacksQuotedMessage(bytes('{}'))).toBe(false);
    (globalThis as { Buffer?: unknown }).Buffer = {
      from: () => ({
        indexOf: () => {
          throw new TypeError('no');
        },
      }),
    };
    expect(lacksQuotedMessage(bytes('{}'))).toBe(false);
  });
});
