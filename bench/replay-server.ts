/**
 * The replay agent: plain `node:http` on 127.0.0.1 that answers like an `@a2a-js/sdk` 1.3 JSON-RPC
 * server (same bytes, see `frames.ts`) but streams progressively: 64 KiB writes with backpressure,
 * so the client, not the server, sets the pace.
 *
 * Any path prefix is an agent: `GET <prefix>.well-known/agent-card.json` serves a card whose
 * interface is `<prefix>`, and `POST <prefix>` takes `SendStreamingMessage` with the chunk count as
 * the message text (`"20000"`), `"hold:N"` to stop after the first chunk until
 * `POST /bench/release` (or 60 s), or `"pace:N:MS"` to send task and working at once and then one
 * chunk every MS milliseconds (a chat gateway's slow agents). Card fetches are counted per prefix.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentCard, answerFrames, CARD_CACHE_CONTROL, SSE_HEADERS, type AnswerFrames, type StreamRequest } from './frames.js';

const CARD_PATH = '.well-known/agent-card.json';
const WRITE_BYTES = 64 * 1024;
const HOLD_LIMIT_MS = 60_000;
/** The longest pause a paced stream may ask for between two chunks. */
const PACE_LIMIT_MS = 60_000;

export interface ReplayServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly url: string;
  /** Card requests received for the agent at `prefix` (e.g. `/` or `/cold-1/`). */
  cardFetches(prefix: string): number;
  /** TCP connections accepted so far. */
  readonly connections: number;
  /** Streams answered so far. */
  readonly streams: number;
  /** Lets every held stream go on. */
  releaseHeld(): void;
  close(): Promise<void>;
}

/** Starts the replay agent on 127.0.0.1 and a free port. */
export async function startReplayServer(): Promise<ReplayServer> {
  const cards = new Map<string, number>();
  let connections = 0;
  let streams = 0;
  let release = gate();
  const sockets = new Set<import('node:net').Socket>();

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 60_000;
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });

  function releaseHeld(): void {
    const held = release;
    release = gate();
    held.open();
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (req.method === 'GET' && path.endsWith(CARD_PATH)) {
      const prefix = path.slice(0, -CARD_PATH.length);
      cards.set(prefix, (cards.get(prefix) ?? 0) + 1);
      const body = JSON.stringify(agentCard(`${url}${prefix}`));
      res.writeHead(200, {
        'Content-Type': 'application/json; charset=utf-8',
        'Cache-Control': CARD_CACHE_CONTROL,
        'Content-Length': Buffer.byteLength(body),
      });
      res.end(body);
      return;
    }
    if (req.method === 'POST' && path === '/bench/release') {
      releaseHeld();
      res.writeHead(204).end();
      return;
    }
    if (req.method !== 'POST' || !path.endsWith('/')) {
      res.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not found"}');
      return;
    }
    const rpc = JSON.parse(await readBody(req)) as { id?: unknown; method?: string; params?: Record<string, unknown> };
    if (rpc.method === 'ListTasks') {
      // As an SDK 1.3 server with no task left waiting on the thread: an empty page.
      const page = { jsonrpc: '2.0', id: rpc.id ?? null, result: { tasks: [], nextPageToken: '', pageSize: 20 } };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(page));
      return;
    }
    if (rpc.method !== 'SendStreamingMessage') {
      const error = { jsonrpc: '2.0', id: rpc.id ?? null, error: { code: -32601, message: `Method not found: ${String(rpc.method)}` } };
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(error));
      return;
    }
    streams++;
    await stream(res, rpc, release.promise);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', backlog: 4096 }, () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    cardFetches: (prefix) => cards.get(prefix) ?? 0,
    get connections() {
      return connections;
    },
    get streams() {
      return streams;
    },
    releaseHeld,
    close: () =>
      new Promise<void>((resolve) => {
        release.open();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** Writes the whole answer of one `SendStreamingMessage`, 64 KiB at a time, waiting for `drain`. */
async function stream(
  res: ServerResponse,
  rpc: { id?: unknown; params?: Record<string, unknown> },
  released: Promise<void>,
): Promise<void> {
  const params = rpc.params ?? {};
  const message = (params['message'] ?? {}) as Record<string, unknown>;
  const configuration = (params['configuration'] ?? {}) as { historyLength?: number };
  const request: StreamRequest = { id: rpc.id, message, historyLength: configuration.historyLength };
  const text = textOf(message);
  const pace = /^pace:(\d+):(\d+)$/.exec(text);
  if (pace !== null) {
    const frames = answerFrames(request, randomUUID(), contextIdOf(message));
    return paced(res, frames, Math.max(1, Number(pace[1])), Math.min(PACE_LIMIT_MS, Number(pace[2])));
  }
  const hold = text.startsWith('hold:');
  const n = Math.max(1, Math.min(10_000_000, Number.parseInt(hold ? text.slice(5) : text, 10) || 1));
  const frames = answerFrames(request, randomUUID(), contextIdOf(message));

  res.writeHead(200, SSE_HEADERS);
  let closed = false;
  res.once('close', () => (closed = true));
  const write = async (data: string): Promise<void> => {
    if (closed || res.write(data)) return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        res.off('drain', done);
        res.off('close', done);
        resolve();
      };
      res.on('drain', done);
      res.on('close', done);
    });
  };

  let batch = frames.task + frames.working;
  for (let i = 0; i < n && !closed; i++) {
    batch += frames.chunk(i, n);
    if (hold && i === 0) {
      await write(batch);
      batch = '';
      await Promise.race([released, new Promise((resolve) => setTimeout(resolve, HOLD_LIMIT_MS).unref())]);
    } else if (batch.length >= WRITE_BYTES) {
      await write(batch);
      batch = '';
    }
  }
  if (!closed) await write(batch + frames.completed);
  res.end();
}

/**
 * A paced answer: task and working at once, then chunk i at (i + 1) × `intervalMs`, the last one
 * with completed. One interval timer per stream: Node keeps timers of one duration in one list, so
 * 10,000 of them cost one libuv timer, and the streams keep the phases their requests came in at.
 */
function paced(res: ServerResponse, frames: AnswerFrames, n: number, intervalMs: number): Promise<void> {
  res.writeHead(200, SSE_HEADERS);
  res.write(frames.task + frames.working);
  return new Promise((resolve) => {
    let i = 0;
    const timer = setInterval(() => {
      if (i < n - 1) {
        res.write(frames.chunk(i++, n));
        return;
      }
      clearInterval(timer);
      res.end(frames.chunk(i, n) + frames.completed);
      resolve();
    }, intervalMs);
    res.once('close', () => {
      clearInterval(timer);
      resolve();
    });
  });
}

const contextIdOf = (message: Record<string, unknown>): string =>
  typeof message['contextId'] === 'string' && message['contextId'] !== '' ? message['contextId'] : randomUUID();

/** A promise and the function that resolves it. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open = (): void => undefined;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

function textOf(message: Record<string, unknown>): string {
  const parts = message['parts'];
  if (!Array.isArray(parts)) return '';
  const first = parts[0] as { text?: unknown } | undefined;
  return typeof first?.text === 'string' ? first.text : '';
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
