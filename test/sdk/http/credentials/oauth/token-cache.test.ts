import { describe, expect, it } from 'vitest';
import { TokenCache, type TokenSpec } from '../../../../../src/sdk/http/credentials/oauth/token-cache.js';

// The token cache's rules on a clock of its own, over a token endpoint answered in process (the real
// server's behaviour is in client-credentials.test.ts).

const SPEC: TokenSpec = {
  tokenUrl: 'https://idp.example/token',
  clientId: 'c',
  clientSecret: 's',
  scopes: ['b', 'a'],
  entry: 'https://agent.example',
};

/** A token endpoint in process: token-1, token-2, … with `expiresIn` (none when undefined), each answer held until released. */
function endpoint(expiresIn: number | undefined) {
  const asked: { scope: string | null; release: () => void }[] = [];
  const fetch: typeof globalThis.fetch = async (_input, init) => {
    const n = asked.length + 1;
    await new Promise<void>((release) => asked.push({ scope: new URLSearchParams(String(init?.body)).get('scope'), release }));
    const body = { access_token: `token-${n}`, token_type: 'Bearer', ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const releaseAll = () => asked.forEach((a) => a.release());
  return { asked, fetch, releaseAll };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('TokenCache', () => {
  it('concurrent callers share one request; the token is kept until a quarter of its life (at most 30 s) before expiry', async () => {
    let now = 0;
    const idp = endpoint(2);
    const cache = new TokenCache(idp.fetch, () => now);
    const waiting = Promise.all([cache.token(SPEC), cache.token(SPEC), cache.token({ ...SPEC, scopes: ['a', 'b'] })]);
    await tick();
    expect(idp.asked).toHaveLength(1); // the scope set is the same in any order
    idp.releaseAll();
    expect(await waiting).toEqual(['token-1', 'token-1', 'token-1']);
    now = 1_499;
    expect(await cache.token(SPEC)).toBe('token-1');
    now = 1_500;
    const next = cache.token(SPEC);
    await tick();
    idp.releaseAll();
    expect(await next).toBe('token-2');

    const long = endpoint(3_600);
    const hourly = new TokenCache(long.fetch, () => now);
    now = 0;
    const first = hourly.token(SPEC);
    await tick();
    long.releaseAll();
    await first;
    now = 3_570_000 - 1;
    expect(await hourly.token(SPEC)).toBe('token-1');
    now = 3_570_000;
    const renewed = hourly.token(SPEC);
    await tick();
    long.releaseAll();
    expect(await renewed).toBe('token-2');
  });

  it('other scopes, another client or token URL: another token', async () => {
    const idp = endpoint(60);
    const cache = new TokenCache(idp.fetch, () => 0);
    const all = Promise.all([
      cache.token(SPEC),
      cache.token({ ...SPEC, scopes: ['a'] }),
      cache.token({ ...SPEC, clientId: 'd' }),
      cache.token({ ...SPEC, tokenUrl: 'https://idp.example/other' }),
    ]);
    await tick();
    idp.releaseAll();
    expect(new Set(await all).size).toBe(4);
    expect(idp.asked.map((a) => a.scope)).toEqual(['b a', 'a', 'b a', 'b a']);
  });

  it('a refused token is dropped only while it is the one held: calls refused with an older one cause no second request', async () => {
    const idp = endpoint(undefined); // no expires_in: kept until refused
    const cache = new TokenCache(idp.fetch, () => 0);
    const first = cache.token(SPEC);
    await tick();
    idp.releaseAll();
    expect(await first).toBe('token-1');
    expect(await cache.token(SPEC)).toBe('token-1');
    cache.refused(SPEC, 'token-1');
    const second = cache.token(SPEC);
    await tick();
    idp.releaseAll();
    expect(await second).toBe('token-2');
    cache.refused(SPEC, 'token-1'); // a call that was refused with the old one, late
    const third = cache.token(SPEC);
    await tick();
    idp.releaseAll();
    expect(await third).toBe('token-2');
    expect(idp.asked).toHaveLength(2);
  });

  it('a failed request is not kept: the next call asks again; a secret function that throws is an auth error', async () => {
    let fail = true;
    const fetch: typeof globalThis.fetch = async () =>
      fail
        ? new Response(JSON.stringify({ error: 'temporarily_unavailable' }), { status: 503 })
        : new Response(JSON.stringify({ access_token: 'ok', token_type: 'bearer' }), { status: 200 });
    const cache = new TokenCache(fetch, () => 0);
    await expect(cache.token(SPEC)).rejects.toMatchObject({
      kind: 'auth',
      message: expect.stringContaining('error "temporarily_unavailable"'),
    });
    fail = false;
    expect(await cache.token(SPEC)).toBe('ok');
    const throwing = cache.token({
      ...SPEC,
      clientId: 'x',
      clientSecret: () => {
        throw new Error('vault sealed');
      },
    });
    await expect(throwing).rejects.toMatchObject({
      kind: 'auth',
      message: 'the OAuth client secret function for https://agent.example failed',
    });
  });
});
