/**
 * The kit of the card tests: a tiny node:http server whose answer each test decides (counting what it receives),
 * a valid v1.0 card for it, the failure a promise rejects with, and a clock moved by hand.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, beforeEach, expect } from 'vitest';
import { A2AError } from '../../../../src/errors.js';
import { createNodeFetch, type NodeFetch } from '../../../../src/node/fetch.js';
import { createSdkPorts, type SdkPortOptions } from '../../../../src/sdk/ports.js';

export const CARD = '/.well-known/agent-card.json';

/** What the tiny server saw of one request. */
export interface Seen {
  method: string;
  url: string;
  /** Set when the response closed: true if it closed before the server finished writing it. */
  closedEarly?: boolean;
}

/** A tiny node:http server whose answer each test decides, counting what it receives. */
export interface CardServer {
  base: string;
  seen: Seen[];
  handle: (req: IncomingMessage, res: ServerResponse, index: number) => void;
  /** Runs `fn` after `ms`, cleared when the server closes. */
  later(ms: number, fn: () => void): void;
  cardRequests(): Seen[];
  close(): Promise<void>;
}

/** Starts a card server on a free loopback port; it answers 404 until a test sets `handle`. */
export async function startCardServer(): Promise<CardServer> {
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

/** Answers `body` (JSON unless a string) with its Content-Length; nothing once the response is gone. */
export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed || res.writableEnded) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(text);
}

/** A valid v1.0 card whose one JSON-RPC interface is on the same server. */
export function v1Card(base: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'hostile',
    supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true },
    ...overrides,
  };
}

/** The A2AError a promise rejects with (fails the test if it resolves or rejects with anything else). */
export async function failure(promise: Promise<unknown>): Promise<A2AError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    return error as A2AError;
  }
  throw new Error('expected a failure, got a value');
}

/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A clock the cache tests move by hand, so no test waits real time for a card to expire. */
export function fakeClock(): { now: () => number; advance: (ms: number) => void } {
  let now = 1_700_000_000_000;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
  };
}

/** The ports of one test, on the node fetch of that test. */
export type TinyPorts = (options?: Omit<SdkPortOptions, 'fetch'>) => ReturnType<typeof createSdkPorts>;

/**
 * A fresh card server and node fetch for every test of the calling `describe`, closed after it: `onServer` is told
 * each test's server; the ports it returns are made on that test's fetch.
 */
export function useCardServer(onServer: (server: CardServer) => void): TinyPorts {
  let http: NodeFetch;
  let server: CardServer;
  beforeEach(async () => {
    server = await startCardServer();
    onServer(server);
    http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
  });
  afterEach(async () => {
    await server.close();
    await http.close();
  });
  return (options = {}) => createSdkPorts({ fetch: http.fetch, ...options });
}
