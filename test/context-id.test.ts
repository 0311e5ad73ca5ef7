import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { A2AError } from '../src/errors.js';
import { CONTEXT_ID_DOMAIN, contextIdFromMac, contextIdMessage, deriveContextId, isContextIdShape } from '../src/identity/context-id.js';

const SECRET = 'correct horse battery staple 0123456789';
const HANDLE = 'travel';
const KEY = 'slack:T1:C2:1700000000.000100';
const CHECK_VALUE = 'd60044ef-6a7b-855b-8640-611124ea95dc';

/** Shape checked independently of isContextIdShape, so a wrong regex in the module cannot hide. */
function expectShape(id: string): void {
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(id[14]).toBe('8'); // version nibble
  expect(['8', '9', 'a', 'b']).toContain(id[19]); // variant 10xx
}

/** Awaits a rejection and returns it, failing if the promise resolves. */
async function rejection(promise: Promise<unknown>): Promise<A2AError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(A2AError);
  return error as A2AError;
}

const nonEmpty = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
const RUNS = { numRuns: 200 };

describe('deriveContextId', () => {
  it('gives the spec check value', async () => {
    expect(CONTEXT_ID_DOMAIN).toBe('a4h-context-v1');
    expect(await deriveContextId(SECRET, HANDLE, KEY)).toBe(CHECK_VALUE);
  });

  it('accepts the secret as bytes, with the same result as its UTF-8 string', async () => {
    const bytes = new TextEncoder().encode(SECRET);
    expect(await deriveContextId(bytes, HANDLE, KEY)).toBe(CHECK_VALUE);
    expect(bytes).toEqual(new TextEncoder().encode(SECRET)); // the caller's bytes are left alone
  });

  it('is deterministic, also across a fresh module instance', async () => {
    const first = await deriveContextId(SECRET, 'h', 'k');
    expect(await deriveContextId(SECRET, 'h', 'k')).toBe(first);
    vi.resetModules();
    const fresh = await import('../src/identity/context-id.js');
    expect(fresh.deriveContextId).not.toBe(deriveContextId); // really a new instance
    expect(await fresh.deriveContextId(SECRET, 'h', 'k')).toBe(first);
    expect(await fresh.deriveContextId(SECRET, HANDLE, KEY)).toBe(CHECK_VALUE);
  });

  it('changes with the secret, the handle and the key', async () => {
    const base = await deriveContextId(SECRET, HANDLE, KEY);
    expect(await deriveContextId(`${SECRET}!`, HANDLE, KEY)).not.toBe(base);
    expect(await deriveContextId(SECRET, 'travel2', KEY)).not.toBe(base);
    expect(await deriveContextId(SECRET, HANDLE, `${KEY}1`)).not.toBe(base);
    // swapping the fields is a different input too
    expect(await deriveContextId(SECRET, KEY, HANDLE)).not.toBe(base);
  });

  it('keeps the fields apart: ("ab","c") differs from ("a","bc")', async () => {
    expect(await deriveContextId(SECRET, 'ab', 'c')).not.toBe(await deriveContextId(SECRET, 'a', 'bc'));
  });

  it('uses strings exactly as given (no trimming, no normalisation)', async () => {
    const base = await deriveContextId(SECRET, HANDLE, KEY);
    expect(await deriveContextId(SECRET, ` ${HANDLE}`, KEY)).not.toBe(base);
    expect(await deriveContextId(SECRET, HANDLE, `${KEY} `)).not.toBe(base);
    // "é" precomposed (NFC) and decomposed (NFD)
    expect(await deriveContextId(SECRET, '\u00e9', KEY)).not.toBe(await deriveContextId(SECRET, 'e\u0301', KEY));
  });

  it('returns a lowercase UUID with version 8 and variant 10', async () => {
    for (const [h, k] of [
      [HANDLE, KEY],
      ['a', 'b'],
      ['日本', '🙂'],
    ] as const) {
      const id = await deriveContextId(SECRET, h, k);
      expectShape(id);
      expect(isContextIdShape(id)).toBe(true);
    }
  });
});

describe('deriveContextId properties', () => {
  it('same input gives the same id, always of the right shape', async () => {
    await fc.assert(
      fc.asyncProperty(nonEmpty, nonEmpty, async (handle, key) => {
        const a = await deriveContextId(SECRET, handle, key);
        const b = await deriveContextId(SECRET, handle, key);
        expect(b).toBe(a);
        expectShape(a);
        expect(isContextIdShape(a)).toBe(true);
      }),
      RUNS,
    );
  });

  it('any change of the handle changes the id', async () => {
    await fc.assert(
      fc.asyncProperty(nonEmpty, nonEmpty, nonEmpty, async (h1, h2, key) => {
        fc.pre(h1 !== h2);
        expect(await deriveContextId(SECRET, h1, key)).not.toBe(await deriveContextId(SECRET, h2, key));
      }),
      RUNS,
    );
  });

  it('any change of the key changes the id', async () => {
    await fc.assert(
      fc.asyncProperty(nonEmpty, nonEmpty, nonEmpty, async (handle, k1, k2) => {
        fc.pre(k1 !== k2);
        expect(await deriveContextId(SECRET, handle, k1)).not.toBe(await deriveContextId(SECRET, handle, k2));
      }),
      RUNS,
    );
  });

  it('moving the boundary between handle and key changes the id', async () => {
    await fc.assert(
      fc.asyncProperty(nonEmpty, nonEmpty, nonEmpty, async (a, b, c) => {
        // (a+b, c) against (a, b+c): same concatenation, different split
        expect(await deriveContextId(SECRET, a + b, c)).not.toBe(await deriveContextId(SECRET, a, b + c));
      }),
      RUNS,
    );
  });
});

describe('deriveContextId input checks', () => {
  it('refuses a 15-byte secret without echoing it, and accepts 16 bytes', async () => {
    const short = 'fifteen-bytes!!';
    expect(new TextEncoder().encode(short).length).toBe(15);
    const error = await rejection(deriveContextId(short, HANDLE, KEY));
    expect(error.kind).toBe('config');
    expect(error.operation).toBe('options');
    expect(error.message).toMatch(/identity secret must be at least 16 bytes/);
    expect(error.message).not.toContain(short);
    expect(String(error.stack)).not.toContain(short);

    expectShape(await deriveContextId('sixteen-bytes!!!', HANDLE, KEY));
    expectShape(await deriveContextId(new Uint8Array(16), HANDLE, KEY));
    await rejection(deriveContextId(new Uint8Array(15), HANDLE, KEY));
  });

  it('measures a multi-byte secret in UTF-8 bytes, not characters', async () => {
    const short = 'ééééé🙂'; // 7 UTF-16 code units but 5×2 + 4 = 14 bytes
    expect(short.length).toBeLessThan(16);
    const tooShort = await rejection(deriveContextId(short, HANDLE, KEY));
    expect(tooShort.message).toMatch(/at least 16 bytes/);
    expect(tooShort.message).not.toContain(short);

    const eightChars = 'éééééééé'; // 8 UTF-16 code units, 16 bytes: fine, though 8 < 16
    expect(eightChars.length).toBe(8);
    expectShape(await deriveContextId(eightChars, HANDLE, KEY));
    // and the bytes are the key: same id as the equivalent Uint8Array
    expect(await deriveContextId(eightChars, HANDLE, KEY)).toBe(await deriveContextId(new TextEncoder().encode(eightChars), HANDLE, KEY));
  });

  it('refuses an empty or non-string handle or key, naming which, without the secret', async () => {
    const cases: Array<[unknown, unknown, RegExp]> = [
      ['', KEY, /handle/],
      [HANDLE, '', /conversation key/],
      [undefined, KEY, /handle/],
      [HANDLE, null, /conversation key/],
      [42, KEY, /handle/],
      [HANDLE, { toString: () => KEY }, /conversation key/],
    ];
    for (const [handle, key, names] of cases) {
      const error = await rejection(deriveContextId(SECRET, handle as string, key as string));
      expect(error.kind).toBe('input');
      expect(error.message).toMatch(names);
      expect(error.message).not.toContain(SECRET);
      expect(String(error.stack)).not.toContain(SECRET);
    }
    // the handle error names the handle, not the key (and vice versa)
    expect((await rejection(deriveContextId(SECRET, '', KEY))).message).not.toMatch(/conversation key/);
    expect((await rejection(deriveContextId(SECRET, HANDLE, ''))).message).not.toMatch(/handle/);
  });

  it('checks the secret before the handle and key, and never calls Web Crypto for bad input', async () => {
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    try {
      expect((await rejection(deriveContextId('short', '', ''))).kind).toBe('config');
      await rejection(deriveContextId(SECRET, '', KEY));
      await rejection(deriveContextId(SECRET, HANDLE, ''));
      expect(importKey).not.toHaveBeenCalled();
      await deriveContextId(SECRET, HANDLE, KEY);
      expect(importKey).toHaveBeenCalledTimes(1); // imported once per call, not cached
      await deriveContextId(SECRET, HANDLE, KEY);
      expect(importKey).toHaveBeenCalledTimes(2);
    } finally {
      importKey.mockRestore();
    }
  });

  it('refuses lone surrogates, which UTF-8 cannot carry and would otherwise collide with U+FFFD', async () => {
    expect((await rejection(deriveContextId(SECRET, '\ud800', KEY))).kind).toBe('input');
    expect((await rejection(deriveContextId(SECRET, HANDLE, `x\udc00`))).kind).toBe('input');
    expectShape(await deriveContextId(SECRET, '\ufffd', KEY));
    expectShape(await deriveContextId(SECRET, '\ud83d\ude42', KEY)); // a proper pair is fine
  });
});

describe('isContextIdShape', () => {
  it('accepts only lowercase version-8, variant-10 UUIDs', () => {
    expect(isContextIdShape(CHECK_VALUE)).toBe(true);
    expect(isContextIdShape(CHECK_VALUE.toUpperCase())).toBe(false);
    expect(isContextIdShape('d60044ef-6a7b-455b-8640-611124ea95dc')).toBe(false); // version 4
    expect(isContextIdShape('d60044ef-6a7b-855b-c640-611124ea95dc')).toBe(false); // variant 110
    expect(isContextIdShape('d60044ef-6a7b-855b-7640-611124ea95dc')).toBe(false); // variant 0
    expect(isContextIdShape(`${CHECK_VALUE}0`)).toBe(false);
    expect(isContextIdShape(` ${CHECK_VALUE}`)).toBe(false);
    expect(isContextIdShape('d60044ef6a7b855b8640611124ea95dc')).toBe(false);
    expect(isContextIdShape('')).toBe(false);
  });
});

describe('contextIdDeriver', () => {
  it('gives the same ids as deriveContextId, importing the key once', async () => {
    const { contextIdDeriver, deriveContextId } = await import('../src/identity/context-id.js');
    const importKey = vi.spyOn(globalThis.crypto.subtle, 'importKey');
    try {
      const derive = contextIdDeriver('correct horse battery staple 0123456789');
      expect(await derive('travel', 'slack:T1:C2:1700000000.000100')).toBe('d60044ef-6a7b-855b-8640-611124ea95dc');
      expect(await derive('travel', 'other')).toBe(await deriveContextId('correct horse battery staple 0123456789', 'travel', 'other'));
      await derive('a', 'b');
      expect(importKey).toHaveBeenCalledTimes(2); // once for the deriver, once for deriveContextId
      await expect(derive('', 'b')).rejects.toMatchObject({ kind: 'input' });
      await expect(contextIdDeriver('short')('a', 'b')).rejects.toMatchObject({ kind: 'config' });
    } finally {
      importKey.mockRestore();
    }
  });
});

describe('the byte layout', () => {
  it('the MAC input is the domain, 0x00, then each field as a u32be byte length and its UTF-8 bytes', () => {
    const expected = [
      ...new TextEncoder().encode('a4h-context-v1'),
      0,
      0,
      0,
      0,
      2,
      0x61,
      0x62,
      0,
      0,
      0,
      6,
      0xc3,
      0xa9,
      0xf0,
      0x9f,
      0x99,
      0x82,
    ];
    expect([...contextIdMessage('ab', '\u00e9🙂')]).toEqual(expected);
    // written into a large enough scratch array (as a view of it), or into a new one when it is too small
    const scratch = new Uint8Array(64).fill(0xff);
    const inScratch = contextIdMessage('ab', '\u00e9🙂', scratch);
    expect(inScratch.buffer).toBe(scratch.buffer);
    expect([...inScratch]).toEqual(expected);
    const small = new Uint8Array(8);
    const outside = contextIdMessage('ab', '\u00e9🙂', small);
    expect(outside.buffer).not.toBe(small.buffer);
    expect([...outside]).toEqual(expected);
    expect(() => contextIdMessage('', 'k')).toThrowError(A2AError);
  });

  it('the UUID is the first 16 MAC bytes with version 8 and variant 10, and the MAC is left alone', () => {
    const mac = Uint8Array.from({ length: 32 }, (_, i) => (i * 17 + 255) & 0xff);
    const copy = mac.slice();
    expect(contextIdFromMac(mac)).toBe('ff102132-4354-8576-8798-a9bacbdcedfe');
    expect(mac).toEqual(copy);
    expect(contextIdFromMac(new Uint8Array(20).fill(0xff))).toBe('ffffffff-ffff-8fff-bfff-ffffffffffff');
    expect(contextIdFromMac(new Uint8Array(16))).toBe('00000000-0000-8000-8000-000000000000');
    expect(() => contextIdFromMac(new Uint8Array(15))).toThrowError(RangeError);
  });
});
