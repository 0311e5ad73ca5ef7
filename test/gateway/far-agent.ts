/**
 * An agent far away: an HTTP proxy on 127.0.0.1 in front of one, every byte delayed by half the
 * round trip each way, as a network would: a request that left is delivered even if its sender dies
 * at once, the response comes back late, and a sender's disconnection reaches the agent late too.
 * The card it relays names the proxy's URL, so every call goes through it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A running far agent. */
export interface FarAgent {
  /** The proxy's base URL, with a trailing slash: the agent's URL for clients. */
  url: string;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'host', 'upgrade']);

const withoutHopByHop = (headers: IncomingMessage['headers']): Record<string, string | string[]> =>
  Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name))) as Record<
    string,
    string | string[]
  >;

/**
 * Starts a proxy in front of `upstream` (the agent's base URL), `rttMs` away (half of it each way).
 * `onRequest` hears each request's body as it leaves its sender (it reaches the agent half a round trip later).
 * `holdMs` holds a request longer before the agent has it, by its body (an agent slow to take a message,
 * say: a model call before it stores its task, while its `ListTasks` answers at once).
 */
export async function startFarAgent(
  upstream: string,
  rttMs: number,
  onRequest?: (body: string) => void,
  holdMs: (body: string) => number = () => 0,
): Promise<FarAgent> {
  const upstreamOrigin = new URL(upstream).origin;
  const oneWay = rttMs / 2;
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing = false;
  // Timers of one delay fire in the order they were set: bytes keep their order.
  const later = (run: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!closing) run();
    }, oneWay);
    timers.add(timer);
  };
  let origin = '';

  const relay = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const headers = withoutHopByHop(req.headers);
    headers['content-length'] = String(body.length);
    const up = httpRequest(new URL(req.url ?? '/', upstreamOrigin), { method: req.method ?? 'GET', headers, agent: false });
    // The sender left: the agent hears of it half a round trip later.
    if (res.closed) later(() => up.destroy());
    else res.once('close', () => later(() => up.destroy()));
    up.on('error', () => later(() => res.destroy()));
    up.on('response', (upRes) => {
      const status = upRes.statusCode ?? 502;
      const outHeaders = withoutHopByHop(upRes.headers);
      if (req.url?.includes('agent-card.json')) {
        const chunks: Buffer[] = [];
        upRes.on('data', (chunk: Buffer) => chunks.push(chunk));
        upRes.on('end', () => {
          const card = Buffer.concat(chunks).toString('utf8').split(upstreamOrigin).join(origin);
          later(() => {
            if (res.destroyed) return;
            res.writeHead(status, { ...outHeaders, 'content-length': String(Buffer.byteLength(card)) });
            res.end(card);
          });
        });
        return;
      }
      later(() => {
        if (!res.destroyed) res.writeHead(status, outHeaders).flushHeaders();
      });
      upRes.on('data', (chunk: Buffer) => later(() => res.destroyed || res.write(chunk)));
      upRes.on('end', () => later(() => res.destroyed || res.end()));
      upRes.on('aborted', () => later(() => res.destroy()));
    });
    up.end(body);
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The request is on its way: it arrives, whatever happens to its sender meanwhile.
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      onRequest?.(body.toString('utf8'));
      const hold = holdMs(body.toString('utf8'));
      const held = () => {
        if (hold <= 0) return relay(req, res, body);
        const timer = setTimeout(() => {
          timers.delete(timer);
          if (!closing) relay(req, res, body);
        }, hold);
        timers.add(timer);
      };
      later(held);
    });
    req.on('error', () => undefined);
    res.on('error', () => undefined);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}/`,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const timer of timers) clearTimeout(timer);
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
