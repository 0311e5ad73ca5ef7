/** createA2A before any I/O: the identity secret, the facade's guards, a resume's sentAt and bad input checked (the kit: client-kit.ts). */
import { Console } from 'node:console';
import { Writable } from 'node:stream';
import { lastValueFrom, of } from 'rxjs';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createA2A } from '../../src/client/create-a2a.js';
import { deriveContextId } from '../../src/identity/context-id.js';
import { createA2A as createNodeA2A } from '../../src/node/create-a2a.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import type { TurnEvent } from '../../src/port/events.js';
import { SECRET, type LogFn, spyLogger, run } from './client-kit.js';

describe('the identity secret', () => {
  beforeEach(() => {
    vi.resetModules();
  });

  it('without a secret: a random per-process key and exactly one warning, however many clients and turns', async () => {
    const fresh = await import('../../src/client/create-a2a.js');
    const logger = spyLogger();
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('hi')) });
    const a = fresh.createA2A({ logger, ports: () => port });
    const b = fresh.createA2A({ logger, ports: () => port });
    await run(a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'one' }));
    await run(b.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'two' }));
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[1]).toMatch(/will not continue after a restart/);
    // the same process key for both clients, and not a fixed one
    expect(await a.contextId('h', 't')).toBe(await b.contextId('h', 't'));
    expect(await a.contextId('h', 't')).not.toBe(await deriveContextId('0'.repeat(32), 'h', 't'));
  });

  it('without a secret: the warning reaches a logger even when the first client was made without one', async () => {
    const fresh = await import('../../src/client/create-a2a.js');
    await fresh.createA2A({ ports: () => createFakePort({}) }).contextId('h', 't');
    const logger = spyLogger();
    await fresh.createA2A({ logger, ports: () => createFakePort({}) }).contextId('h', 't');
    await fresh.createA2A({ logger, ports: () => createFakePort({}) }).contextId('h', 't');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[1]).toMatch(/will not continue after a restart/);
  });

  it('without a secret but with a contextId on every turn (a browser given them by its backend): no warning', async () => {
    const fresh = await import('../../src/client/create-a2a.js');
    const logger = spyLogger();
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('hi')) });
    const a2a = fresh.createA2A({ logger, ports: () => port });
    await run(a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'one', contextId: 'ctx-from-backend' }));
    await run(a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 'u', text: 'two', contextId: 'ctx-2' }));
    expect(logger.warn).not.toHaveBeenCalled();
    await run(a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 'v', text: 'derived' }));
    expect(logger.warn).toHaveBeenCalledTimes(1);
  });

  it('without a secret, logger: console prints the warning as one sentence', async () => {
    const fresh = await import('../../src/client/create-a2a.js');
    let printed = '';
    const stream = new Writable({ write: (chunk: Buffer, _encoding, done) => ((printed += chunk.toString()), done()) });
    await fresh.createA2A({ logger: new Console(stream), ports: () => createFakePort({}) }).contextId('h', 't');
    expect(printed).toBe(
      'a4h-a2a: No identity secret is set (A4H_IDENTITY_SECRET), so a random key is used for this process: conversations will not continue after a restart.\n',
    );
  });

  it('a fresh process gets a fresh random key', async () => {
    const first = (await import('../../src/client/create-a2a.js')).createA2A({ ports: () => createFakePort({}) });
    vi.resetModules();
    const second = (await import('../../src/client/create-a2a.js')).createA2A({ ports: () => createFakePort({}) });
    expect(await first.contextId('h', 't')).not.toBe(await second.contextId('h', 't'));
  });

  it('a secret shorter than 16 bytes is a configuration error that does not show the secret', () => {
    expect(() => createA2A({ identitySecret: 'short-secret-15' })).toThrowError(/at least 16 bytes/);
    try {
      createA2A({ identitySecret: 'short-secret-15' });
    } catch (error) {
      expect(error).toMatchObject({ kind: 'config' });
      expect(String((error as Error).message)).not.toContain('short-secret-15');
    }
  });

  it('the Node entry reads A4H_IDENTITY_SECRET', async () => {
    vi.stubEnv('A4H_IDENTITY_SECRET', SECRET);
    try {
      const client = createNodeA2A({ ports: () => createFakePort({}) });
      expect(await client.contextId('travel', 'slack:T1:C2:1700000000.000100')).toBe('d60044ef-6a7b-855b-8640-611124ea95dc');
      await client.close();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('same thread, same id across clients that share the secret; another secret, another id', async () => {
    const one = createA2A({ identitySecret: SECRET, ports: () => createFakePort({}) });
    const two = createA2A({ identitySecret: SECRET, ports: () => createFakePort({}) });
    const other = createA2A({ identitySecret: `${SECRET}!`, ports: () => createFakePort({}) });
    expect(await one.contextId('travel', 'k')).toBe(await two.contextId('travel', 'k'));
    expect(await one.contextId('travel', 'k')).not.toBe(await other.contextId('travel', 'k'));
  });
});

describe('the facade guards', () => {
  it('a logger that throws while the guard adopts a context ends the turn with that error (not an unhandled one)', async () => {
    const logger = {
      ...spyLogger(),
      warn: vi.fn<LogFn>(() => {
        throw new Error('logger down');
      }),
    };
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () => of({ ...ev.message('hi'), message: { ...ev.message('hi').message, contextId: 'theirs' } }),
    });
    const client = createA2A({ identitySecret: SECRET, ports: () => port, logger });
    await expect(lastValueFrom(client.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }))).rejects.toThrow(
      'logger down',
    );
  });

  it('card() is bounded by cardTimeoutMs', async () => {
    const { createServer } = await import('node:http');
    const sockets = new Set<import('node:net').Socket>();
    const server = createServer(() => undefined); // accepts, never answers
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as import('node:net').AddressInfo).port}/`;
      const client = createA2A({ identitySecret: SECRET, policy: { cardTimeoutMs: 200 } });
      await expect(lastValueFrom(client.card(url))).rejects.toMatchObject({ kind: 'timeout', phase: 'card' });
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe("a resume's sentAt is checked before any I/O", () => {
  it.each([
    [{ sentAt: 1 }, /sentAt goes with messageId/],
    [{ messageId: 'm', sentAt: 1.5 }, /sentAt must be a time in milliseconds/],
    [{ messageId: 'm', sentAt: -1 }, /sentAt must be a time in milliseconds/],
    [{ messageId: 'm', sentAt: '2026-12-04' }, /sentAt must be a time in milliseconds/],
  ])('%j', async (extra, message) => {
    const port = createFakePort({});
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    const input = { agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', ...extra } as Parameters<typeof client.resume>[0];
    await expect(lastValueFrom(client.resume(input))).rejects.toMatchObject({ kind: 'input', message: expect.stringMatching(message) });
    expect(port.calls).toEqual([]);
  });
});

describe('bad input is refused before any I/O', () => {
  it.each([
    [{ agent: 'not a url', handle: 'h', thread: 't', text: 'hi' }, /not a URL/],
    [{ agent: 'http://127.0.0.1:1/', handle: '', thread: 't', text: 'hi' }, /handle/],
    [{ agent: 'http://127.0.0.1:1/', handle: 'h', thread: '', text: 'hi' }, /thread/],
    [{ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: '' }, /empty/],
    // A caller's id obeys the rule an agent's does: no C0, DEL or C1 control (an 8-bit CSI here).
    [{ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi', messageId: 'm\u009b2J' }, /messageId holds a control character/],
  ])('%j', async (input, message) => {
    const port = createFakePort({});
    const client = createA2A({ identitySecret: SECRET, ports: () => port });
    const events: TurnEvent[] = [];
    await expect(lastValueFrom(client.turn(input))).rejects.toMatchObject({ kind: 'input', message: expect.stringMatching(message) });
    client.turn(input).subscribe({ next: (e) => events.push(e), error: () => undefined });
    expect(events[0]).toEqual({ type: 'start' });
    expect(port.calls).toEqual([]);
  });
});
