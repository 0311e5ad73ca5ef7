import { describe, expect, it } from 'vitest';
import { DEFAULT_PUSH_TOKEN_MAX_AGE_MS, MAX_TOKEN_CHARS, pushCredentials } from '../../src/push/credential.js';

// The push token: the thread it names, signed with the identity secret, good for a while; nothing stored.

const SECRET = 'credential-test-secret-0123456789';
let now = Date.UTC(2026, 11, 5);
const credentials = pushCredentials({ secret: SECRET, now: () => now });

describe('push credentials', () => {
  it('names the thread it was issued for, any contextId (dots, slashes, non-ASCII), and no other', async () => {
    for (const contextId of ['ctx-1', 'a.b.c', 'slack:T1/C2', 'Zürich ✓', 'x'.repeat(256)]) {
      const token = await credentials.issue(contextId);
      expect(token).toMatch(/^a4hp1\.[A-Za-z0-9_-]+\.[0-9a-z]+\.[A-Za-z0-9_-]{43}$/);
      expect(await credentials.verify(token)).toBe(contextId);
    }
  });

  it('refuses a token whose thread, time or MAC was changed, or that is not one at all', async () => {
    const token = await credentials.issue('ctx-1');
    const [prefix, context, issued, mac] = token.split('.') as [string, string, string, string];
    const other = Buffer.from('ctx-2').toString('base64url');
    const flip = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    for (const bad of [
      [prefix, other, issued, mac].join('.'),
      [prefix, context, (parseInt(issued, 36) + 1).toString(36), mac].join('.'),
      [prefix, context, issued, flip(mac)].join('.'),
      [prefix, context, issued].join('.'),
      `a4hp2.${context}.${issued}.${mac}`,
      '',
      'Bearer',
      token + 'x'.repeat(MAX_TOKEN_CHARS),
    ]) {
      expect(await credentials.verify(bad)).toBeUndefined();
    }
  });

  it('is good for maxAgeMs after it was issued, not after, and not from the future', async () => {
    const token = await credentials.issue('ctx-1');
    now += DEFAULT_PUSH_TOKEN_MAX_AGE_MS - 1000;
    expect(await credentials.verify(token)).toBe('ctx-1');
    now += 2000;
    expect(await credentials.verify(token)).toBeUndefined();
    const early = await pushCredentials({ secret: SECRET, now: () => now + 10 * 60_000 }).issue('ctx-1');
    expect(await credentials.verify(early)).toBeUndefined();
  });

  it('takes tokens a rotated-out secret signed, and issues with the current one only', async () => {
    const old = await pushCredentials({ secret: SECRET, now: () => now }).issue('ctx-1');
    const rotated = pushCredentials({ secret: 'the-new-secret-abcdefghijklmnop', previousSecrets: [SECRET], now: () => now });
    expect(await rotated.verify(old)).toBe('ctx-1');
    expect(await credentials.verify(await rotated.issue('ctx-1'))).toBeUndefined();
  });

  it('refuses a short secret, a bad maxAgeMs and an empty contextId, saying which', async () => {
    expect(() => pushCredentials({ secret: 'short' })).toThrow(expect.objectContaining({ kind: 'config' }));
    expect(() => pushCredentials({ secret: SECRET, previousSecrets: ['short'] })).toThrow(/at least 16 bytes/);
    expect(() => pushCredentials({ secret: SECRET, maxAgeMs: 0 })).toThrow(/maxAgeMs/);
    await expect(credentials.issue('')).rejects.toMatchObject({ kind: 'input' });
  });
});

describe("a caller's push target on a message", () => {
  it('is checked before anything is sent: an http(s) URL, a token and an id without spaces or control characters', async () => {
    const { checkRequest } = await import('../../src/turn/request.js');
    const good = { url: 'https://gateway.example/a2a/push', token: 'a4hp1.x.y.z', id: 'a4h-push' };
    expect(() => checkRequest({ text: 'hi', push: good })).not.toThrow();
    for (const [push, what] of [
      [{ ...good, url: 'file:///etc/passwd' }, /push\.url/],
      [{ ...good, url: 'not a url' }, /push\.url/],
      [{ ...good, token: 'a b' }, /push\.token/],
      [{ ...good, token: 'tok\r\nX-Evil: 1' }, /push\.token/],
      [{ ...good, token: '' }, /push\.token/],
      [{ ...good, id: '' }, /push\.id/],
    ] as const) {
      expect(() => checkRequest({ text: 'hi', push })).toThrow(what);
    }
    let message = '';
    try {
      checkRequest({ text: 'hi', push: { ...good, token: 'secret token' } });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).not.toContain('secret');
  });
});
