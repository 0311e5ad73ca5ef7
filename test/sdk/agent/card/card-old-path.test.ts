/**
 * fetchCardOrOld's revalidation of a card held from the old well-known path (`/.well-known/agent.json`):
 * asked there with its validators, not at `agent-card.json` first; a card moved away from it is asked
 * for as at first. Over a fetch that answers from a table and records each request.
 */
import { describe, expect, it } from 'vitest';
import { fetchCardOrOld } from '../../../../src/sdk/agent/card/old-path.js';

const BASE = 'http://agent.test';
const CURRENT = `${BASE}/.well-known/agent-card.json`;
const OLD = `${BASE}/.well-known/agent.json`;
const CARD = { name: 'old', url: `${BASE}/` };

/** A request as the fake server saw it: its URL and its If-None-Match. */
type Seen = [url: string, ifNoneMatch: string | null];

/** A fetch whose answers are `routes` (URL → status and ETag; 304 when If-None-Match matches), recording into `seen`. */
function fakeFetch(routes: Record<string, { status: number; etag?: string }>, seen: Seen[]): typeof fetch {
  return async (input, init) => {
    const url = String(input);
    const ifNoneMatch = new Headers(init?.headers).get('if-none-match');
    seen.push([url, ifNoneMatch]);
    const route = routes[url] ?? { status: 404 };
    const headers: Record<string, string> = route.etag === undefined ? {} : { etag: route.etag };
    if (route.status === 200 && route.etag !== undefined && ifNoneMatch === route.etag) return new Response(null, { status: 304, headers });
    if (route.status !== 200) return new Response('not here', { status: route.status });
    return new Response(JSON.stringify(CARD), { status: 200, headers: { ...headers, 'content-type': 'application/json' } });
  };
}

const signal = new AbortController().signal;

describe('fetchCardOrOld: a card held from the old path', () => {
  it('from a base URL: its validators say where it came from, and its revalidation is asked there alone (a 304, still from there)', async () => {
    const seen: Seen[] = [];
    const fetchImpl = fakeFetch({ [OLD]: { status: 200, etag: '"v1"' } }, seen);
    const first = await fetchCardOrOld(fetchImpl, CURRENT, 1_000_000, signal, undefined, true);
    expect(first.from).toBe(OLD);
    expect(first.fetched.validators).toEqual({ etag: '"v1"', from: OLD });
    const again = await fetchCardOrOld(fetchImpl, CURRENT, 1_000_000, signal, first.fetched.validators, true);
    expect(again).toEqual({ fetched: { notModified: true, maxAgeMs: undefined, validators: { etag: '"v1"', from: OLD } }, from: OLD });
    expect(seen).toEqual([
      [CURRENT, null],
      [OLD, null],
      [OLD, '"v1"'],
    ]);
  });

  it('a card moved away from the old path (404 there): asked for as at first, without the validators', async () => {
    const seen: Seen[] = [];
    const fetchImpl = fakeFetch({ [CURRENT]: { status: 200, etag: '"v2"' } }, seen);
    const moved = await fetchCardOrOld(fetchImpl, CURRENT, 1_000_000, signal, { etag: '"v1"', from: OLD }, true);
    expect(moved.from).toBe(CURRENT);
    expect(moved.fetched).toMatchObject({ json: CARD, validators: { etag: '"v2"' } });
    expect(moved.fetched.validators).not.toHaveProperty('from');
    expect(seen).toEqual([
      [OLD, '"v1"'],
      [CURRENT, null],
    ]);
  });

  it('a card at the current path keeps validators without a from, and is revalidated there', async () => {
    const seen: Seen[] = [];
    const fetchImpl = fakeFetch({ [CURRENT]: { status: 200, etag: '"v3"' } }, seen);
    const first = await fetchCardOrOld(fetchImpl, CURRENT, 1_000_000, signal, undefined, true);
    expect(first.fetched.validators).toEqual({ etag: '"v3"' });
    const again = await fetchCardOrOld(fetchImpl, CURRENT, 1_000_000, signal, first.fetched.validators, true);
    expect(again.fetched).toMatchObject({ notModified: true });
    expect(seen).toEqual([
      [CURRENT, null],
      [CURRENT, '"v3"'],
    ]);
  });
});
