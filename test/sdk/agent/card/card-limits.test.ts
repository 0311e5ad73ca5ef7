/** The card fetch bounded: its size and HTTP errors (the kit: card-kit.ts). */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { eventually } from '../../../eventually.js';
import { failure, reply, sleep, useCardServer, v1Card, type CardServer } from './card-kit.js';

describe('card resolution against a tiny server', () => {
  let server: CardServer;
  const ports = useCardServer((s) => (server = s));

  describe('size limit', () => {
    const big = (base: string) => JSON.stringify(v1Card(base, { description: 'x'.repeat(5_000) }));

    it('a card under the limit loads', async () => {
      server.handle = (_req, res) => reply(res, 200, v1Card(server.base, { description: 'x'.repeat(1_000) }));
      expect((await lastValueFrom(ports({ cardMaxBytes: 2_000 })(server.base).card())).name).toBe('hostile');
    });

    it('a card over cardMaxBytes with a Content-Length → kind card', async () => {
      server.handle = (_req, res) => reply(res, 200, big(server.base));
      const error = await failure(lastValueFrom(ports({ cardMaxBytes: 2_000 })(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('larger than 2000 bytes');
    });

    it('a declared Content-Length over the limit is refused before the body arrives', async () => {
      const body = big(server.base);
      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.write(body.slice(0, 100)); // and then nothing: only the header can say it is too large
      };
      const started = Date.now();
      const error = await failure(
        Promise.race([
          lastValueFrom(ports({ cardMaxBytes: 2_000 })(server.base).card()),
          sleep(1_000).then(() => Promise.reject(new Error('the card was not refused on its Content-Length'))),
        ]),
      );
      expect(error.kind).toBe('card');
      expect(error.message).toContain('larger than 2000 bytes');
      expect(Date.now() - started).toBeLessThan(1_000);
      await eventually(() => server.seen[0]?.closedEarly !== undefined);
      expect(server.seen[0]?.closedEarly).toBe(true);
    });

    it('a chunked card (no Content-Length) that grows past cardMaxBytes → kind card, and the download is cut off', async () => {
      const chunk = 'x'.repeat(500);
      let written = 0;
      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write(`{"name":"endless","description":"`);
        const tick = () => {
          if (res.destroyed || written >= 200) return res.end('"}');
          res.write(chunk);
          written++;
          server.later(5, tick);
        };
        tick();
      };
      const error = await failure(lastValueFrom(ports({ cardMaxBytes: 2_000 })(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('larger than 2000 bytes');
      await eventually(() => server.seen[0]?.closedEarly !== undefined);
      expect(server.seen[0]?.closedEarly).toBe(true);
      expect(written).toBeLessThan(200);
    });

    it('a connection that breaks while the card body arrives → kind card', async () => {
      server.handle = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"name":"half');
        server.later(20, () => res.socket?.destroy());
      };
      const error = await failure(lastValueFrom(ports()(server.base).card()));
      expect(error).toMatchObject({ kind: 'card', operation: 'card', retryable: true });
    });
  });

  describe('HTTP errors', () => {
    // Retryable as on any call (the wire table): an overloaded, restarting or slow agent, or a proxy before one; the rest is final.
    for (const [status, retryable] of [
      [404, false],
      [410, false],
      [501, false],
      [408, true],
      [429, true],
      [500, true],
      [502, true],
      [503, true],
      [504, true],
    ] as const) {
      it(`HTTP ${status} → kind card with the status, ${retryable ? '' : 'not '}retryable`, async () => {
        server.handle = (_req, res) => reply(res, status, { error: 'nope' });
        const error = await failure(lastValueFrom(ports()(server.base).card()));
        expect(error).toMatchObject({ kind: 'card', status, operation: 'card', retryable });
        expect(error.message).toContain(String(status));
      });
    }

    it('a refused connection (an agent restarting) → kind card, retryable', async () => {
      const closed = server.base;
      await server.close();
      const error = await failure(lastValueFrom(ports()(closed).card()));
      expect(error).toMatchObject({ kind: 'card', operation: 'card', retryable: true });
    });
  });
});
