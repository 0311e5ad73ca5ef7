import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startV1Agent, type FixtureAgent } from '../../../../fixtures/index.js';
import { createNodeFetch, type NodeFetch } from '../../../../src/node/fetch.js';
import { createSdkPorts, type SdkPortOptions } from '../../../../src/sdk/ports.js';
import { useAgentRig } from '../../../agent-rig.js';

const CARD = '/.well-known/agent-card.json';

/** A card request as the server saw it, and what it answered. */
interface CardHit {
  ifNoneMatch?: string;
  ifModifiedSince?: string;
  version?: string;
  status: number;
}

/**
 * A card server that validates like an HTTP cache expects: it sends `ETag` and/or `Last-Modified`
 * with `Cache-Control`, answers a matching conditional request with 304 (and the `Cache-Control` it
 * is told), and counts its 200s and 304s.
 */
interface CardServer {
  base: string;
  hits: CardHit[];
  /** The card's name (a change is a new card: a new ETag, a later Last-Modified). */
  name: string;
  etag: boolean;
  lastModified: boolean;
  cacheControl: string | undefined;
  /** The `Cache-Control` of a 304 (none when undefined). */
  notModifiedCacheControl: string | undefined;
  count(status: number): number;
  close(): Promise<void>;
}

async function startCardServer(): Promise<CardServer> {
  const modified = (name: string) => new Date(Date.UTC(2026, 0, 1) + name.length * 86_400_000).toUTCString();
  const handle = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== CARD) return res.writeHead(404).end();
    const etag = `"card-${state.name}"`;
    const lastModified = modified(state.name);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (state.etag) headers['etag'] = etag;
    if (state.lastModified) headers['last-modified'] = lastModified;
    const hit: CardHit = { status: 200 };
    const ifNoneMatch = req.headers['if-none-match'];
    const ifModifiedSince = req.headers['if-modified-since'];
    if (ifNoneMatch !== undefined) hit.ifNoneMatch = ifNoneMatch;
    if (ifModifiedSince !== undefined) hit.ifModifiedSince = ifModifiedSince;
    if (typeof req.headers['a2a-version'] === 'string') hit.version = req.headers['a2a-version'];
    state.hits.push(hit);
    const fresh =
      (state.etag && ifNoneMatch === etag) ||
      (!state.etag && state.lastModified && ifModifiedSince !== undefined && ifModifiedSince === lastModified);
    if (fresh) {
      hit.status = 304;
      const notModified: Record<string, string> = {};
      if (state.etag) notModified['etag'] = etag;
      if (state.notModifiedCacheControl !== undefined) notModified['cache-control'] = state.notModifiedCacheControl;
      return res.writeHead(304, notModified).end();
    }
    if (state.cacheControl !== undefined) headers['cache-control'] = state.cacheControl;
    const card = {
      name: state.name,
      supportedInterfaces: [{ url: `${state.base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
      capabilities: { streaming: true },
    };
    res.writeHead(200, headers).end(JSON.stringify(card));
  };
  const server: Server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: CardServer = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    hits: [],
    name: 'revalidated',
    etag: true,
    lastModified: true,
    cacheControl: 'max-age=60',
    notModifiedCacheControl: 'max-age=60',
    count: (status) => state.hits.filter((hit) => hit.status === status).length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return state;
}

/** A clock the tests move by hand: no test waits for a card to expire. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let now = 1_700_000_000_000;
  return { now: () => now, advance: (ms) => void (now += ms) };
}

describe('card revalidation: ETag and Last-Modified after max-age', () => {
  let server: CardServer;
  let http: NodeFetch;
  let clock: ReturnType<typeof fakeClock>;
  const port = (options: Omit<SdkPortOptions, 'fetch' | 'clock'> = {}) =>
    createSdkPorts({ fetch: http.fetch, clock: clock.now, ...options })(server.base);

  beforeEach(async () => {
    server = await startCardServer();
    http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
    clock = fakeClock();
  });
  afterEach(async () => {
    await http.close();
    await server.close();
  });

  it('an expired card with an ETag is revalidated with If-None-Match; a 304 keeps it and its max-age starts again', async () => {
    server.lastModified = false;
    const agent = port();
    const first = await lastValueFrom(agent.card());
    clock.advance(59_999);
    await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 0]);
    clock.advance(1);
    const kept = await lastValueFrom(agent.card());
    expect(kept).toBe(first); // the same resolved agent, not a new one
    expect([server.count(200), server.count(304)]).toEqual([1, 1]);
    expect(server.hits[1]).toEqual({ ifNoneMatch: '"card-revalidated"', version: '1.0', status: 304 });
    // The 304's max-age: fresh for another 60 s, then revalidated again.
    clock.advance(59_999);
    await lastValueFrom(agent.card());
    expect(server.hits).toHaveLength(2);
    clock.advance(1);
    await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 2]);
  });

  it('Last-Modified alone: If-Modified-Since, the same way', async () => {
    server.etag = false;
    const agent = port();
    await lastValueFrom(agent.card());
    clock.advance(60_000);
    await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 1]);
    expect(server.hits[1]?.ifModifiedSince).toBe(new Date(Date.UTC(2026, 0, 1) + 'revalidated'.length * 86_400_000).toUTCString());
    expect(server.hits[1]?.ifNoneMatch).toBeUndefined();
  });

  it('both: both conditions go; a changed card answers 200 and replaces the one held', async () => {
    const agent = port();
    expect((await lastValueFrom(agent.card())).name).toBe('revalidated');
    server.name = 'changed';
    clock.advance(60_000);
    expect((await lastValueFrom(agent.card())).name).toBe('changed');
    expect(server.hits[1]).toMatchObject({ ifNoneMatch: '"card-revalidated"', ifModifiedSince: expect.any(String), status: 200 });
    // The new card's validators are the ones sent next.
    clock.advance(60_000);
    await lastValueFrom(agent.card());
    expect(server.hits[2]).toMatchObject({ ifNoneMatch: '"card-changed"', status: 304 });
    expect([server.count(200), server.count(304)]).toEqual([2, 1]);
  });

  it('a 304 without Cache-Control keeps the max-age the card came with', async () => {
    server.cacheControl = 'max-age=10';
    server.notModifiedCacheControl = undefined;
    const agent = port({ cardTtlMs: 999_000 });
    await lastValueFrom(agent.card());
    clock.advance(10_000);
    await lastValueFrom(agent.card());
    clock.advance(9_999);
    await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 1]);
    clock.advance(1);
    await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 2]);
  });

  it('no-cache: every turn revalidates (a 304 each time); no-store: never conditional', async () => {
    server.cacheControl = 'no-cache';
    server.notModifiedCacheControl = 'no-cache';
    const agent = port();
    for (let i = 0; i < 3; i++) await lastValueFrom(agent.card());
    expect([server.count(200), server.count(304)]).toEqual([1, 2]);

    server.hits.length = 0;
    server.cacheControl = 'no-store';
    const other = createSdkPorts({ fetch: http.fetch, clock: clock.now })(server.base);
    for (let i = 0; i < 3; i++) await lastValueFrom(other.card());
    expect(server.hits.map((hit) => [hit.status, hit.ifNoneMatch])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
  });

  it('a card without validators is fetched whole again, unconditionally', async () => {
    server.etag = false;
    server.lastModified = false;
    const agent = port();
    await lastValueFrom(agent.card());
    clock.advance(60_000);
    await lastValueFrom(agent.card());
    expect(server.hits).toEqual([
      { version: '1.0', status: 200 },
      { version: '1.0', status: 200 },
    ]);
  });
});

describe("card revalidation against the SDK's card handler (ETag, max-age=3600)", () => {
  let agent: FixtureAgent;
  let http: NodeFetch;
  useAgentRig(startV1Agent, (a, h) => ([agent, http] = [a, h]));

  it('after an hour the card is revalidated: one 200, then 304s, and turns go on with the card held', async () => {
    const clock = fakeClock();
    const port = createSdkPorts({ fetch: http.fetch, clock: clock.now })(agent.url('/'));
    const first = await lastValueFrom(port.card());
    for (let i = 0; i < 2; i++) {
      clock.advance(3_600_000);
      expect(await lastValueFrom(port.card())).toBe(first);
    }
    const cards = agent.received.filter((r) => r.method === `GET ${CARD}`);
    expect(cards.map((r) => r.status)).toEqual([200, 304, 304]);
    expect(cards[1]?.headers['if-none-match']).toBeTruthy();
    for (const request of cards) expect(request.headers['a2a-version']).toBe('1.0');
    expect(await lastValueFrom(port.send({ text: 'artifacts' }))).toMatchObject({ kind: 'task' });
  });
});

describe('a revalidation that gets no answer (a browser whose CORS preflight refuses its conditions)', () => {
  it('is asked once more without conditions: the card, fetched whole', async () => {
    const server = await startCardServer();
    const http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
    const clock = fakeClock();
    const refused: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      if (new Headers(init?.headers).has('if-none-match')) {
        refused.push(String(input));
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return http.fetch(input, init);
    };
    try {
      const port = createSdkPorts({ fetch, clock: clock.now })(server.base);
      await lastValueFrom(port.card());
      server.name = 'changed';
      clock.advance(60_000);
      expect((await lastValueFrom(port.card())).name).toBe('changed');
      expect(refused).toHaveLength(1);
      expect(server.hits.map((hit) => [hit.status, hit.ifNoneMatch])).toEqual([
        [200, undefined],
        [200, undefined],
      ]);
    } finally {
      await http.close();
      await server.close();
    }
  });
});
