/** The card checked: v0.3 shapes and validation (the kit: card-kit.ts). */
import { lastValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { CARD, failure, reply, useCardServer, v1Card, type CardServer } from './card-kit.js';

describe('card resolution against a tiny server', () => {
  let server: CardServer;
  const ports = useCardServer((s) => (server = s));

  describe('v0.3-shaped cards', () => {
    it('no protocolVersion and a top-level url: a v0.3 agent (v0.3 methods, historyLength 1)', async () => {
      const sent: { method?: string; params?: { configuration?: { historyLength?: number } } }[] = [];
      server.handle = (req, res) => {
        if (req.url === CARD) return reply(res, 200, { name: 'legacy', url: `${server.base}rpc` });
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () => {
          const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: number; method?: string };
          sent.push(body);
          reply(res, 200, {
            jsonrpc: '2.0',
            id: body.id,
            result: { kind: 'message', messageId: 'm-1', role: 'agent', parts: [{ kind: 'text', text: 'hello' }] },
          });
        });
      };
      const port = ports()(server.base);
      const card = await lastValueFrom(port.card());
      expect(card).toMatchObject({
        name: 'legacy',
        protocolVersion: '0.3',
        transport: 'JSONRPC',
        streaming: false,
        url: `${server.base}rpc`,
      });

      const result = await lastValueFrom(port.send({ text: 'hi' }));
      expect(result).toMatchObject({ kind: 'message', message: { role: 'agent', parts: [{ kind: 'text', text: 'hello' }] } });
      expect(sent.map((s) => s.method)).toEqual(['message/send']);
      expect(sent[0]?.params?.configuration?.historyLength).toBe(1);
    });

    it('a v0.3 card with preferredTransport HTTP+JSON and no protocolVersion', async () => {
      server.handle = (_req, res) =>
        reply(res, 200, {
          name: 'legacy-rest',
          url: `${server.base}v1`,
          preferredTransport: 'HTTP+JSON',
          capabilities: { streaming: true },
        });
      expect(await lastValueFrom(ports()(server.base).card())).toMatchObject({
        protocolVersion: '0.3',
        transport: 'HTTP+JSON',
        streaming: true,
      });
    });
  });

  describe('validation', () => {
    const cases: [string, (base: string) => unknown, string][] = [
      ['a card missing name', (base) => v1Card(base, { name: undefined }), 'name'],
      ['a v0.3 card missing name', (base) => ({ url: `${base}rpc` }), 'name'],
      ['supportedInterfaces: []', (base) => v1Card(base, { supportedInterfaces: [] }), 'supportedInterfaces'],
      [
        'an interface url that is not http(s)',
        (base) =>
          v1Card(base, { supportedInterfaces: [{ url: 'ftp://127.0.0.1/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] }),
        'supportedInterfaces.0.url',
      ],
      ['a v0.3 url that is not a URL', () => ({ name: 'x', url: 'nowhere' }), 'field url'],
      ['capabilities.streaming: "yes"', (base) => v1Card(base, { capabilities: { streaming: 'yes' } }), 'capabilities.streaming'],
      ['a skill without an id', (base) => v1Card(base, { skills: [{ name: 'no id' }] }), 'skills.0.id'],
      [
        'an interface url with credentials in it',
        (base) =>
          v1Card(base, {
            supportedInterfaces: [
              { url: base.replace('http://', 'http://user:pass@') + 'rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
            ],
          }),
        'supportedInterfaces.0.url is not usable: it must not carry credentials',
      ],
      [
        'only a gRPC interface (host:port)',
        (base) => v1Card(base, { supportedInterfaces: [{ url: '127.0.0.1:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' }] }),
        'it offers: GRPC',
      ],
    ];

    it('a gRPC interface at a spec-form address (host:port) is skipped when another one is usable, in both card shapes', async () => {
      const grpc = { url: 'agent.example.com:443', protocolBinding: 'GRPC', protocolVersion: '1.0' };
      server.handle = (_req, res) =>
        reply(res, 200, v1Card(server.base, { supportedInterfaces: [grpc, ...(v1Card(server.base).supportedInterfaces as unknown[])] }));
      expect(await lastValueFrom(ports()(server.base).card())).toMatchObject({ transport: 'JSONRPC', url: `${server.base}rpc` });
      const v03 = {
        name: 'v03 with gRPC first',
        url: 'agent.example.com:443',
        preferredTransport: 'GRPC',
        protocolVersion: '0.3.0',
        additionalInterfaces: [
          { url: 'agent.example.com:443', transport: 'GRPC' },
          { url: `${server.base}rpc`, transport: 'JSONRPC' },
        ],
      };
      server.handle = (_req, res) => reply(res, 200, v03);
      expect(await lastValueFrom(ports()(server.base).card())).toMatchObject({
        transport: 'JSONRPC',
        url: `${server.base}rpc`,
        protocolVersion: '0.3',
      });
    });

    for (const [name, body, field] of cases) {
      it(`${name} → kind card naming ${field}, and no later call`, async () => {
        server.handle = (req, res) => (req.url === CARD ? reply(res, 200, body(server.base)) : reply(res, 500, {}));
        const port = ports()(server.base);
        const error = await failure(lastValueFrom(port.card()));
        expect(error).toMatchObject({ kind: 'card', operation: 'card', agent: `${server.base}${CARD.slice(1)}`, retryable: false });
        expect(error.message).toContain(field);
        // A send on the same port fails the same way and never reaches an interface.
        expect((await failure(lastValueFrom(port.send({ text: 'hi' })))).kind).toBe('card');
        expect(server.seen.every((s) => s.method === 'GET' && s.url === CARD)).toBe(true);
        expect(server.seen).toHaveLength(2); // a refused card is not cached
      });
    }

    it('a body that is not JSON → kind card', async () => {
      server.handle = (_req, res) => reply(res, 200, '<html>hello</html>', { 'content-type': 'text/html' });
      const error = await failure(lastValueFrom(ports()(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('not JSON');
      expect(server.seen).toHaveLength(1);
    });

    it('a JSON array → kind card', async () => {
      server.handle = (_req, res) => reply(res, 200, [v1Card(server.base)]);
      const error = await failure(lastValueFrom(ports()(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('not a JSON object');
    });

    it('only a GRPC interface → kind card naming what it offers', async () => {
      server.handle = (_req, res) =>
        reply(
          res,
          200,
          v1Card(server.base, { supportedInterfaces: [{ url: `${server.base}grpc`, protocolBinding: 'GRPC', protocolVersion: '1.0' }] }),
        );
      const error = await failure(lastValueFrom(ports()(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('GRPC');
      expect(server.seen).toHaveLength(1);
    });

    it('a v0.3 card whose transports are all GRPC → kind card naming them', async () => {
      server.handle = (_req, res) => reply(res, 200, { name: 'g', url: `${server.base}grpc`, preferredTransport: 'GRPC' });
      const error = await failure(lastValueFrom(ports()(server.base).card()));
      expect(error.kind).toBe('card');
      expect(error.message).toContain('GRPC');
    });
  });
});
