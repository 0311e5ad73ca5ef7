import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { contextIdDeriver, deriveContextId } from '../src/identity/context-id.js';
import { nodeContextIdDeriver } from '../src/node/context-id.js';

const SECRET = 'correct horse battery staple 0123456789';

describe('the node:crypto deriver', () => {
  it('gives the check value, synchronously', () => {
    expect(nodeContextIdDeriver(SECRET)('travel', 'slack:T1:C2:1700000000.000100')).toBe('d60044ef-6a7b-855b-8640-611124ea95dc');
  });

  it('gives the same ids as Web Crypto for any handle and key, string or byte secrets', async () => {
    const web = contextIdDeriver(SECRET);
    const node = nodeContextIdDeriver(SECRET);
    const bytes = new TextEncoder().encode(SECRET);
    const nodeBytes = nodeContextIdDeriver(bytes);
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'grapheme', minLength: 1 }),
        fc.string({ unit: 'grapheme', minLength: 1 }),
        async (handle, key) => {
          const expected = await web(handle, key);
          expect(await node(handle, key)).toBe(expected);
          expect(await nodeBytes(handle, key)).toBe(expected);
        },
      ),
      { numRuns: 200 },
    );
    expect(await node('ab', 'c')).toBe(await deriveContextId(SECRET, 'ab', 'c'));
  });

  it('handles and keys too long for its scratch array give the Web Crypto ids, and so do short ones after them', async () => {
    const web = contextIdDeriver(SECRET);
    const node = nodeContextIdDeriver(SECRET);
    for (const [handle, key] of [
      ['travel', 'k'.repeat(5_000)],
      ['h'.repeat(400), '日本🙂'.repeat(300)],
      ['travel', 'slack:T1:C2:1700000000.000100'],
      ['a', 'b'],
    ] as const) {
      expect(node(handle, key)).toBe(await web(handle, key));
    }
  });

  it('refuses what Web Crypto refuses, with the same errors', async () => {
    const node = nodeContextIdDeriver(SECRET);
    await expect(Promise.resolve(node('', 'k'))).rejects.toMatchObject({ kind: 'input', message: expect.stringContaining('handle') });
    await expect(Promise.resolve(node('h', ''))).rejects.toMatchObject({ kind: 'input' });
    // a trailing high and a leading low surrogate must not pass as a pair
    await expect(Promise.resolve(node('a\ud800', '\udc00b'))).rejects.toMatchObject({ kind: 'input' });
  });

  it('refuses the secrets Web Crypto refuses, at once', () => {
    expect(() => nodeContextIdDeriver('short')).toThrowError(/at least 16 bytes/);
    expect(() => nodeContextIdDeriver('a well-formed secret except \ud800')).toThrowError(/well-formed/);
  });
});
