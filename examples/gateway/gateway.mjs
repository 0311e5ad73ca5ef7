/**
 * A chat gateway replica on a4h-a2a: a thread's message in, the agent's turn out as Server-Sent
 * Events whose ids are reply positions, so a client that loses its stream (a replica killed, a
 * deploy, a network blip) reconnects through the load balancer to any replica and gets exactly the
 * rest. Replicas share `A4H_IDENTITY_SECRET` and nothing else: no session store, no sticky routing.
 *
 *     A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [--port N] [--name NAME]
 *
 *   POST /threads/KEY/messages   {"text": "…"}  → text/event-stream: the turn's events
 *   GET  /threads/KEY/events     Last-Event-ID: <position> (or ?from=) → the rest of that reply;
 *                                without one, the thread's reply in progress (or its pending question)
 *   POST /threads/KEY/cancel     {"taskId": "…"} → 202: CancelTask for that task, from any replica
 *   GET  /healthz                200 while serving, 503 once draining (the load balancer's check)
 *
 * Each SSE event is `event: <TurnEvent type>`, `data: <the event as JSON>` and, once the agent named
 * its task, `id: <delivered>.<taskId>` (`formatPosition`). A client that leaves mid-reply leaves the
 * task running (`onLeave: 'detach'`): it may come back; a Stop button posts `cancel`. On SIGTERM
 * (a deploy) the replica stops taking requests, fails its health check, hands its turns over
 * (`close({ detach: true })`: no CancelTask) and ends its streams; their clients reconnect elsewhere.
 */
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { take } from 'rxjs';
// The built library (`npm run build`); an app would write `from 'a4h-a2a/node'`.
import { catchTurnError, createA2A, formatPosition, parsePosition, positionAfter } from '../../dist/node/index.js';
import { startedAs } from '../started-as.mjs';
import { eventFrame, STREAM_HEADERS } from './sse.mjs';

/** The agent's handle in the contextId derivation: every replica must use the same. */
export const HANDLE = 'demo';
/** Longest thread key and message accepted. */
const MAX_THREAD = 200;
const MAX_BODY = 64 * 1024;
/** A comment line this often keeps idle streams open through proxies. */
const HEARTBEAT_MS = 15_000;

/** A request the gateway refuses, with its status. */
class Refusal extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/**
 * Starts one replica; resolves once it listens.
 * @param {import('./gateway.d.mts').GatewayOptions} options
 * @returns {Promise<import('./gateway.d.mts').Gateway>}
 */
export async function startGateway(options) {
  const agent = new URL(options.agent).href;
  const name = options.name ?? `${hostname()}:${process.pid}`;
  const log = options.log ?? (() => {});
  const a2a = options.client ?? createA2A(options.secret ? { identitySecret: options.secret } : {});
  let draining = false;
  /** The streams open now, each ended when its turn is handed over. */
  const streams = new Set();

  /**
   * Streams `events$` to `res` as SSE, each event's id its position (from `from` on).
   * @param {import('node:http').ServerResponse} res
   * @param {import('rxjs').Observable<import('../../dist/index.js').TurnEvent>} events$
   * @param {import('../../dist/index.js').ReplyPosition | undefined} from
   */
  const stream = (res, events$, from) => {
    res.writeHead(200, { ...STREAM_HEADERS, 'X-Replica': name });
    res.write(`retry: 1000\n: replica ${name}\n\n`);
    let position = from;
    const heartbeat = setInterval(() => res.write(': keep-alive\n\n'), HEARTBEAT_MS);
    const stop = () => {
      clearInterval(heartbeat);
      streams.delete(res);
      subscription.unsubscribe();
    };
    const subscription = events$.pipe(catchTurnError()).subscribe({
      next: (event) => {
        // Handed over (SIGTERM): end the stream without a word; the client reconnects elsewhere.
        if (event.type === 'error' && draining && event.error.kind === 'aborted') return;
        if (event.type !== 'error') position = positionAfter(position, event);
        res.write(eventFrame(event, position && formatPosition(position)));
      },
      complete: () => res.end(),
    });
    streams.add(res);
    // The client left (or the stream ended): leaving detaches, it does not cancel.
    res.on('close', stop);
  };

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  const route = async (req, res) => {
    if (!req.url?.startsWith('/')) throw new Refusal(400, 'the request target must be a path');
    const url = new URL(`http://localhost${req.url}`);
    if (url.pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'only GET');
      return reply(res, draining ? 503 : 200, { replica: name, draining });
    }
    const match = /^\/threads\/([^/]+)\/(messages|events|cancel)$/.exec(url.pathname);
    if (match === null) throw new Refusal(404, 'not found');
    const thread = decodeURIComponent(match[1]);
    if (thread.length > MAX_THREAD) throw new Refusal(400, `a thread key is at most ${MAX_THREAD} characters`);
    if (draining) throw new Refusal(503, 'this replica is shutting down; try again');
    const base = { agent, handle: HANDLE, thread, onLeave: 'detach' };
    const action = match[2];
    if (action === 'events') {
      if (req.method !== 'GET') throw new Refusal(405, 'only GET');
      const from = positionOf(req.headers['last-event-id'] ?? url.searchParams.get('from') ?? undefined);
      log(`${thread}: resume${from ? ` ${from.taskId} after ${from.delivered} characters` : ''}`);
      return stream(res, a2a.resume({ ...base, ...(from ? { from } : {}) }), from);
    }
    if (req.method !== 'POST') throw new Refusal(405, 'only POST');
    const body = await readJson(req);
    if (action === 'messages') {
      if (typeof body.text !== 'string' || body.text.trim() === '') throw new Refusal(400, 'the body must be {"text": "<a message>"}');
      log(`${thread}: message`);
      return stream(res, a2a.turn({ ...base, text: body.text }), undefined);
    }
    if (typeof body.taskId !== 'string' || body.taskId === '') throw new Refusal(400, 'the body must be {"taskId": "<the task>"}');
    // Follow the task until it is named, then leave with the default onLeave: the client sends CancelTask.
    const { onLeave: _detach, ...cancelling } = base;
    log(`${thread}: cancel ${body.taskId}`);
    await new Promise((resolve, reject) =>
      a2a
        .resume({ ...cancelling, taskId: body.taskId })
        .pipe(take(2)) // start, then task: once the task is known, leaving cancels it
        .subscribe({ complete: resolve, error: reject }),
    );
    return reply(res, 202, { taskId: body.taskId });
  };

  const server = createServer((req, res) => {
    route(req, res).catch((error) => {
      const status = error instanceof Refusal ? error.status : error?.kind === 'task-not-found' ? 404 : 502;
      if (!res.headersSent) reply(res, status, { error: error instanceof Error ? error.message : String(error) });
      else res.end();
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { address, port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  let closing;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/`,
    name,
    close() {
      closing ??= (async () => {
        draining = true;
        const closed = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        // Every running turn fails `aborted` without CancelTask, and its stream ends quietly.
        await a2a.close({ detach: true });
        for (const res of streams) res.end();
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value */
function reply(res, status, value) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(value));
}

/** The position of a `Last-Event-ID`, undefined when none was sent; a malformed one is refused. */
function positionOf(/** @type {string | string[] | undefined} */ id) {
  if (id === undefined || id === '') return undefined;
  const position = typeof id === 'string' ? parsePosition(id) : undefined;
  if (position === undefined) throw new Refusal(400, 'Last-Event-ID is not a position this gateway wrote');
  return position;
}

/** The request's JSON body (at most {@link MAX_BODY} bytes) as an object. */
async function readJson(/** @type {import('node:http').IncomingMessage} */ req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // refused below
  }
  throw new Refusal(400, 'the body must be a JSON object');
}

/** The replica's command line: runs until SIGTERM or SIGINT, then hands its turns over and exits 0. */
async function main() {
  const { values } = parseArgs({
    options: {
      agent: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.agent) {
    process.stdout.write(
      'Usage: A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [--port N] [--host ADDRESS] [--name NAME]\n' +
        '  --agent URL   the A2A agent (required)\n' +
        '  --port N      port to listen on (default 0: a free one, printed)\n' +
        '  --name NAME   this replica in logs and the X-Replica header (default host:pid)\n',
    );
    if (!values.help) process.exitCode = 2;
    return;
  }
  const port = Number(values.port ?? '0');
  if (!/^\d+$/.test(values.port ?? '0') || port > 65_535) throw new Error(`--port must be 0 to 65535, not ${values.port}`);
  const name = values.name ?? `${hostname()}:${process.pid}`;
  const gateway = await startGateway({
    agent: values.agent,
    port,
    name,
    ...(values.host ? { host: values.host } : {}),
    log: (line) => process.stderr.write(`gateway ${name}: ${line}\n`),
  });
  process.stdout.write(`gateway ${name} on ${gateway.url}\n`);
  const stop = (signal) => {
    process.stderr.write(`gateway ${name}: ${signal}, handing its turns over\n`);
    gateway.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
