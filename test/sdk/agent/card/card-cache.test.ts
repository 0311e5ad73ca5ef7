/** The card cached: CardCache, Cache-Control, revalidation on expiry (the kit: card-kit.ts). */
import { firstValueFrom, forkJoin, lastValueFrom, of } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { CardCache } from '../../../../src/sdk/agent/card/cache.js';
import { eventually } from '../../../eventually.js';
import { CARD, fakeClock, failure, reply, sleep, useCardServer, v1Card, type CardServer } from './card-kit.js';

describe('CardCache', () => {
  it('reads Date.now when no clock is given', async () => {
    let now = 1_700_000_000_000;
    const spy = vi.spyOn(Date, 'now').mockImplementation(() => now);
    try {
      const cache = new CardCache<number>({ defaultTtlMs: 100, maxTtlMs: 1_000, maxEntries: 8 });
      let loads = 0;
      const get = () => lastValueFrom(cache.get('k', () => of({ value: ++loads, maxAgeMs: undefined })));
      expect(await get()).toBe(1);
      now += 99;
      expect(await get()).toBe(1);
      now += 1;
      expect(await get()).toBe(2);
    } finally {
      spy.mockRestore();
    }
  });

  it('replace puts a better value in place of the loaded one for the rest of its life, and nothing else', async () => {
    let now = 0;
    const cache = new CardCache<string>({ defaultTtlMs: 100, maxTtlMs: 1_000, maxEntries: 8 }, () => now);
    let loads = 0;
    const get = () => lastValueFrom(cache.get('k', () => of({ value: `loaded ${++loads}`, maxAgeMs: undefined })));
    cache.replace('k', 'loaded 1', 'unseen'); // nothing loaded yet: no entry to replace
    expect(await get()).toBe('loaded 1');
    cache.replace('k', 'loaded 0', 'stale'); // another value than the entry holds: left alone
    expect(await get()).toBe('loaded 1');
    cache.replace('k', 'loaded 1', 'better');
    now += 99;
    expect(await get()).toBe('better');
    now += 1; // the replaced value expires when the loaded one would have
    expect(await get()).toBe('loaded 2');
    expect(loads).toBe(2);
  });
});

describe('card resolution against a tiny server', () => {
  let server: CardServer;
  const ports = useCardServer((s) => (server = s));

  describe('cache', () => {
    const serveCard = (headers: Record<string, string> = {}) => {
      server.handle = (_req, res) => reply(res, 200, v1Card(server.base), headers);
    };

    it('two card() calls in sequence → one fetch (also across ports of one factory)', async () => {
      serveCard();
      const factory = ports();
      const port = factory(server.base);
      await lastValueFrom(port.card());
      await lastValueFrom(port.card());
      await lastValueFrom(factory(server.base.slice(0, -1)).card());
      expect(server.cardRequests()).toHaveLength(1);
    });

    it('a reader that leaves at the card (firstValueFrom) leaves it cached for the next', async () => {
      serveCard();
      const factory = ports();
      await firstValueFrom(factory(server.base).card());
      await firstValueFrom(factory(server.base).card());
      await lastValueFrom(factory(server.base).card());
      expect(server.cardRequests()).toHaveLength(1);
    });

    it('ports of two factories do not share a cache', async () => {
      serveCard();
      await lastValueFrom(ports()(server.base).card());
      await lastValueFrom(ports()(server.base).card());
      expect(server.cardRequests()).toHaveLength(2);
    });

    for (const header of ['max-age=0', 'no-store', 'no-cache', 'public, max-age=0']) {
      it(`Cache-Control: ${header} → fetched again next time, even at the same instant`, async () => {
        serveCard({ 'cache-control': header });
        const port = ports({ clock: fakeClock().now })(server.base);
        await lastValueFrom(port.card());
        await lastValueFrom(port.card());
        expect(server.cardRequests()).toHaveLength(2);
      });
    }

    /** Loads the card, and again `ms` - 1 later: one fetch; 1 ms more and it is fetched again. */
    const expectCachedFor = async (port: ReturnType<ReturnType<typeof ports>>, clock: ReturnType<typeof fakeClock>, ms: number) => {
      await lastValueFrom(port.card());
      clock.advance(ms - 1);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(1);
      clock.advance(1);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(2);
    };

    it('Cache-Control: max-age=1 → cached for 1 s (not the cardTtlMs), then fetched again', async () => {
      serveCard({ 'cache-control': 'public, max-age=1' });
      const clock = fakeClock();
      await expectCachedFor(ports({ cardTtlMs: 60_000, clock: clock.now })(server.base), clock, 1_000);
    });

    it('without Cache-Control the cardTtlMs option applies', async () => {
      serveCard();
      const clock = fakeClock();
      await expectCachedFor(ports({ cardTtlMs: 300, clock: clock.now })(server.base), clock, 300);
    });

    it('cardMaxTtlMs caps a huge max-age', async () => {
      serveCard({ 'cache-control': 'max-age=31536000' });
      const clock = fakeClock();
      await expectCachedFor(ports({ cardMaxTtlMs: 300, clock: clock.now })(server.base), clock, 300);
    });

    it('the defaults: 5 minutes without Cache-Control, at most 1 hour with it', async () => {
      const clock = fakeClock();
      const expectRequestsAfter = async (port: ReturnType<ReturnType<typeof ports>>, ms: number, requests: number) => {
        clock.advance(ms);
        await lastValueFrom(port.card());
        expect(server.cardRequests()).toHaveLength(requests);
      };
      serveCard();
      const plain = ports({ clock: clock.now })(server.base);
      await expectRequestsAfter(plain, 0, 1);
      await expectRequestsAfter(plain, 299_999, 1);
      await expectRequestsAfter(plain, 1, 2);

      serveCard({ 'cache-control': 'max-age=31536000' });
      const capped = ports({ clock: clock.now })(server.base);
      await expectRequestsAfter(capped, 0, 3);
      await expectRequestsAfter(capped, 3_599_999, 3);
      await expectRequestsAfter(capped, 1, 4);
    });

    it('50 concurrent card() calls to a cold agent whose card takes 100 ms → one card request', async () => {
      server.handle = (_req, res) => server.later(100, () => reply(res, 200, v1Card(server.base)));
      const factory = ports();
      const spellings = [server.base, server.base.slice(0, -1), `${server.base}${CARD.slice(1)}`];
      const cards = await lastValueFrom(forkJoin(Array.from({ length: 50 }, (_, i) => factory(spellings[i % 3]!).card())));
      expect(cards).toHaveLength(50);
      expect(cards.every((c) => c.name === 'hostile')).toBe(true);
      expect(server.seen).toHaveLength(1);
    });

    it('a failed fetch is not cached: 500, then 200 → the second card() succeeds with a second request', async () => {
      server.handle = (_req, res, index) => (index === 0 ? reply(res, 500, { error: 'boom' }) : reply(res, 200, v1Card(server.base)));
      const port = ports({ clock: fakeClock().now })(server.base); // no time passes: only the failure makes it fetch again
      expect((await failure(lastValueFrom(port.card()))).status).toBe(500);
      expect((await lastValueFrom(port.card())).name).toBe('hostile');
      expect(server.cardRequests()).toHaveLength(2);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(2);
    });

    it('everyone leaving aborts the shared fetch; a later card() makes a new request', async () => {
      server.handle = (_req, res, index) => server.later(index === 0 ? 500 : 0, () => reply(res, 200, v1Card(server.base)));
      const port = ports()(server.base);
      const first = port.card().subscribe();
      const second = port.card().subscribe();
      await eventually(() => server.seen.length === 1);
      first.unsubscribe();
      await sleep(30);
      expect(server.seen[0]?.closedEarly).toBeUndefined(); // one subscriber is still there
      second.unsubscribe();
      await eventually(() => server.seen[0]?.closedEarly !== undefined);
      expect(server.seen[0]?.closedEarly).toBe(true);

      expect((await lastValueFrom(port.card())).name).toBe('hostile');
      expect(server.cardRequests()).toHaveLength(2);
    });

    it('one subscriber leaving does not abort the fetch the others wait for', async () => {
      server.handle = (_req, res) => server.later(100, () => reply(res, 200, v1Card(server.base)));
      const port = ports()(server.base);
      const leaver = port.card().subscribe();
      const stayer = lastValueFrom(port.card());
      await eventually(() => server.seen.length === 1);
      leaver.unsubscribe();
      expect((await stayer).name).toBe('hostile');
      expect(server.seen).toHaveLength(1);
      expect(server.seen[0]?.closedEarly).toBe(false);
    });
  });
});
