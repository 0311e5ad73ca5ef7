import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { firstValueFrom, forkJoin, lastValueFrom, of } from 'rxjs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { startV03Agent, startV1Agent, V1_TENANT, type FixtureAgent } from '../../fixtures/index.js';
import { A2AError } from '../../src/errors.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import { CardCache } from '../../src/sdk/agent/card/cache.js';
import { cardUrlOf } from '../../src/port/card-url.js';
import { createSdkPorts, type SdkPortOptions } from '../../src/sdk/ports.js';
import { eventually } from '../eventually.js';

const CARD = '/.well-known/agent-card.json';

/** What the tiny server saw of one request. */
interface Seen {
  method: string;
  url: string;
  /** Set when the response closed: true if it closed before the server finished writing it. */
  closedEarly?: boolean;
}

/** A tiny node:http server whose answer each test decides, counting what it receives. */
interface CardServer {
  base: string;
  seen: Seen[];
  handle: (req: IncomingMessage, res: ServerResponse, index: number) => void;
  /** Runs `fn` after `ms`, cleared when the server closes. */
  later(ms: number, fn: () => void): void;
  cardRequests(): Seen[];
  close(): Promise<void>;
}

async function startCardServer(): Promise<CardServer> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const seen: Seen = { method: req.method ?? '', url: req.url ?? '' };
    state.seen.push(seen);
    res.on('close', () => {
      seen.closedEarly = !res.writableFinished;
    });
    state.handle(req, res, state.seen.length - 1);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const state: CardServer = {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    seen: [],
    handle: (_req, res) => reply(res, 404, { error: 'no handler' }),
    later(ms, fn) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        fn();
      }, ms);
      timers.add(timer);
    },
    cardRequests: () => state.seen.filter((s) => s.method === 'GET' && s.url === CARD),
    close: () =>
      new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
  return state;
}

function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A valid v1.0 card whose one JSON-RPC interface is on the same server. */
function v1Card(base: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'hostile',
    supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    ...overrides,
  };
}

/** The A2AError a promise rejects with (fails the test if it resolves or rejects with anything else). */
async function failure(promise: Promise<unknown>): Promise<A2AError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    return error as A2AError;
  }
  throw new Error('expected a failure, got a value');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A clock the cache tests move by hand, so no test waits real time for a card to expire. */
function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let now = 1_700_000_000_000;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

describe('cardUrlOf', () => {
  it('a base URL with or without the trailing slash reaches the same card', () => {
    expect(cardUrlOf('http://h/rest')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('http://h/rest/')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('https://h')).toBe('https://h/.well-known/agent-card.json');
    expect(cardUrlOf('https://h/')).toBe('https://h/.well-known/agent-card.json');
  });

  it('a URL ending in .json is the card URL, used as is (its query kept)', () => {
    expect(cardUrlOf('http://h/rest/.well-known/agent-card.json')).toBe('http://h/rest/.well-known/agent-card.json');
    expect(cardUrlOf('https://h/agents/a/card.json?v=2')).toBe('https://h/agents/a/card.json?v=2');
  });

  it('the hash is dropped; a base URL loses its query (the card sits below the path)', () => {
    expect(cardUrlOf('http://h/a#section')).toBe('http://h/a/.well-known/agent-card.json');
    expect(cardUrlOf('http://h/card.json#x')).toBe('http://h/card.json');
    // The query goes with the card (and every call): hosted agents take API keys there.
    expect(cardUrlOf('http://h/a?x=1')).toBe('http://h/a/.well-known/agent-card.json?x=1');
    expect(cardUrlOf('http://h/a/?key=K&v=2#top')).toBe('http://h/a/.well-known/agent-card.json?key=K&v=2');
  });

  it.each([
    ['ftp://h/agent', 'http or https'],
    ['file:///etc/card.json', 'http or https'],
    ['javascript:alert(1)', 'http or https'],
    ['not a url', 'not a URL'],
    ['', 'not a URL'],
    ['//h/agent', 'not a URL'],
  ])('%j → kind input', (input, says) => {
    let thrown: unknown;
    try {
      cardUrlOf(input);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(A2AError);
    expect(thrown).toMatchObject({ kind: 'input', operation: 'card' });
    expect((thrown as A2AError).message).toContain(says);
  });

  it.each([
    ['127.0.0.1:41241', 'http://127.0.0.1:41241/'],
    ['localhost:41241', 'http://localhost:41241/'],
    ['localhost:41241/agents/a', 'http://localhost:41241/agents/a'],
    ['[::1]:8080', 'http://[::1]:8080/'],
    ['agent.example.com', 'https://agent.example.com/'],
    ['agent.example.com:8443/a2a?key=K', 'https://agent.example.com:8443/a2a?key=***'],
  ])('%j without a scheme → "not a URL; did you mean %s?"', (input, meant) => {
    expect(() => cardUrlOf(input)).toThrow(`; did you mean ${meant}?`);
    expect(() => cardUrlOf(input)).toThrow(/^not a URL: /);
  });

  it('no guess for what is no host: a bare word, a sentence', () => {
    expect(() => cardUrlOf('agent')).toThrow(/^not a URL: "agent"$/);
    expect(() => cardUrlOf('not a url')).toThrow(/^not a URL: "not a url"$/);
  });

  it('credentials in the URL → kind input, and the message does not repeat them', () => {
    let thrown: unknown;
    try {
      cardUrlOf('https://user:hunter2@h/agent');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ kind: 'input' });
    expect((thrown as Error).message).not.toContain('hunter2');
  });

  it('a bad URL fails the port before any I/O', async () => {
    let calls = 0;
    const ports = createSdkPorts({
      fetch: () => {
        calls++;
        return Promise.reject(new Error('no I/O expected'));
      },
    });
    expect((await failure(lastValueFrom(ports('ftp://h/agent').card()))).kind).toBe('input');
    expect((await failure(lastValueFrom(ports('https://u:p@h/').send({ text: 'hi' })))).kind).toBe('input');
    expect(calls).toBe(0);
  });
});

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

describe('card resolution against the fixture agents', () => {
  let v1: FixtureAgent;
  let v03: FixtureAgent;
  let http: NodeFetch;
  beforeAll(async () => {
    [v1, v03] = await Promise.all([startV1Agent(), startV03Agent()]);
  });
  afterAll(async () => {
    await Promise.all([v1.close(), v03.close()]);
  });
  beforeEach(() => {
    http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
    v1.received.length = 0;
    v03.received.length = 0;
  });
  afterEach(() => http.close());

  it('/rest, /rest/ and the full card URL load the /rest/ agent (not the root agent), with one fetch', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const noSlash = await lastValueFrom(ports(`${v1.baseUrl}/rest`).card());
    expect(noSlash.name).toBe('v1-rest');
    expect(v1.received.map((r) => [r.mount, r.method, r.path])).toEqual([['/rest/', `GET ${CARD}`, `/rest${CARD}`]]);

    const slash = await lastValueFrom(ports(`${v1.baseUrl}/rest/`).card());
    const full = await lastValueFrom(ports(`${v1.baseUrl}/rest${CARD}`).card());
    expect(slash.name).toBe('v1-rest');
    expect(full.name).toBe('v1-rest');
    expect(v1.received).toHaveLength(1); // one card URL, one cache entry
  });

  it('the root agent without a trailing slash', async () => {
    const card = await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v1.baseUrl).card());
    expect(card.name).toBe('v1-main');
    expect(v1.received.map((r) => r.path)).toEqual([CARD]);
  });

  it('summaries of the v1.0 mounts', async () => {
    const ports = createSdkPorts({ fetch: http.fetch });
    const card = (mount: string) => lastValueFrom(ports(v1.url(mount)).card());

    const main = await card('/');
    expect(main).toMatchObject({
      name: 'v1-main',
      protocolVersion: '1.0',
      transport: 'JSONRPC',
      streaming: true,
      url: `${v1.baseUrl}/a2a/jsonrpc`,
    });
    expect(main.tenant).toBeUndefined();
    expect(main.skills?.[0]).toMatchObject({ id: 'fixture' });

    expect(await card('/rest/')).toMatchObject({
      name: 'v1-rest',
      transport: 'HTTP+JSON',
      protocolVersion: '1.0',
      url: `${v1.baseUrl}/rest/a2a/rest`,
    });
    expect(await card('/tenant/')).toMatchObject({ name: 'v1-tenant', tenant: V1_TENANT, transport: 'JSONRPC' });
    expect(await card('/nostream/')).toMatchObject({ name: 'v1-nostream', streaming: false });
  });

  it('the card request asks for JSON and names protocol version 1.0', async () => {
    await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v1.url('/')).card());
    expect(v1.received[0]?.headers).toMatchObject({ accept: 'application/json', 'a2a-version': '1.0' });
  });

  it('summary of the v0.3 agent: protocol 0.3, JSON-RPC', async () => {
    const card = await lastValueFrom(createSdkPorts({ fetch: http.fetch })(v03.url('/')).card());
    expect(card).toMatchObject({ name: 'v03-main', transport: 'JSONRPC', streaming: true, url: `${v03.baseUrl}/a2a/jsonrpc` });
    // The card declares "0.3.0"; the summary carries what the card declares.
    expect(card.protocolVersion.split('.').slice(0, 2).join('.')).toBe('0.3');
    expect(v03.received.map((r) => r.method)).toEqual([`GET ${CARD}`]);
  });
});

describe('card resolution against a tiny server', () => {
  let server: CardServer;
  let http: NodeFetch;
  const ports = (options: Omit<SdkPortOptions, 'fetch'> = {}) => createSdkPorts({ fetch: http.fetch, ...options });

  beforeEach(async () => {
    server = await startCardServer();
    http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
  });
  afterEach(async () => {
    await server.close();
    await http.close();
  });

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

    it('Cache-Control: max-age=1 → cached for 1 s (not the cardTtlMs), then fetched again', async () => {
      serveCard({ 'cache-control': 'public, max-age=1' });
      const clock = fakeClock();
      const port = ports({ cardTtlMs: 60_000, clock: clock.now })(server.base);
      await lastValueFrom(port.card());
      clock.advance(999);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(1);
      clock.advance(1);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(2);
    });

    it('without Cache-Control the cardTtlMs option applies', async () => {
      serveCard();
      const clock = fakeClock();
      const port = ports({ cardTtlMs: 300, clock: clock.now })(server.base);
      await lastValueFrom(port.card());
      clock.advance(299);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(1);
      clock.advance(1);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(2);
    });

    it('cardMaxTtlMs caps a huge max-age', async () => {
      serveCard({ 'cache-control': 'max-age=31536000' });
      const clock = fakeClock();
      const port = ports({ cardMaxTtlMs: 300, clock: clock.now })(server.base);
      await lastValueFrom(port.card());
      clock.advance(299);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(1);
      clock.advance(1);
      await lastValueFrom(port.card());
      expect(server.cardRequests()).toHaveLength(2);
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
