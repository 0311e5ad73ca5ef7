/**
 * The gateway client (examples/gateway/client-follow.mjs) against scripted gateways on 127.0.0.1: a stream
 * silent for two heartbeats is dead (it reconnects from its position), a message whose POST broke is
 * asked for before it is sent again (with the same id, and only when the agent never got it), and a
 * gateway out of reach is tried with a growing, jittered backoff until the budget, whose error
 * carries what to resume from.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { GatewayUnreachable } from '../../examples/gateway/client-errors.mjs';
import { backoff, followTurn } from '../../examples/gateway/client-follow.mjs';
import { freePort } from '../../examples/gateway/cluster.mjs';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const servers: Array<{ close(): void; closeAllConnections(): void }> = [];

/** A scripted gateway: each request is handed to `handle` with its body; resolves its URL. */
async function scripted(handle: Handler): Promise<string> {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => handle(req, res, body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
}

const frame = (event: Record<string, unknown>, id?: string) =>
  `event: ${String(event.type)}\n${id ? `id: ${id}\n` : ''}data: ${JSON.stringify(event)}\n\n`;
/** A whole turn in frames: start, task `t`, its end completed. */
const completedTurn = () =>
  frame({ type: 'start' }) +
  frame({ type: 'task', taskId: 't' }, '0.t') +
  frame({ type: 'end', outcome: 'completed', text: '', taskId: 't' }, '0.t');
const head = (res: ServerResponse, heartbeatMs = 5000) =>
  res.writeHead(200, { 'content-type': 'text/event-stream', 'x-replica': 'S', 'x-heartbeat-ms': String(heartbeatMs) });

afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('the gateway client', { timeout: 15_000 }, () => {
  it('a stream silent for two heartbeats is dead: it reconnects with its position and gets the rest', async () => {
    const seen: Array<string | undefined> = [];
    const url = await scripted((req, res) => {
      seen.push(req.headers['last-event-id'] as string | undefined);
      head(res, 100);
      if (seen.length === 1) {
        res.write(
          frame({ type: 'start' }) +
            frame({ type: 'task', taskId: 't' }, '0.t') +
            frame({ type: 'text', text: 'Hel', replace: false }, '3.t'),
        );
        return; // then silence: no heartbeat, no end (a frozen replica behind a proxy that keeps the connection)
      }
      res.end(
        frame({ type: 'text', text: 'lo', replace: false }, '5.t') +
          frame({ type: 'end', outcome: 'completed', text: 'Hello', taskId: 't' }, '5.t'),
      );
    });
    const started = Date.now();
    const followed = await followTurn({ gateway: url, thread: 't', text: 'hi', random: () => 0 });
    expect(followed).toMatchObject({ reply: 'Hello', end: { outcome: 'completed' }, reconnects: 1 });
    expect(seen).toEqual([undefined, '3.t']);
    expect(Date.now() - started).toBeLessThan(1_500);
    expect(followed.recoveries).toHaveLength(1);
  });

  it('a POST that broke is followed by asking for its message; sent again (same id) only on not-received', async () => {
    const requests: Array<{ method: string; url: string; messageId?: string }> = [];
    const url = await scripted((req, res, body) => {
      const messageId = body ? (JSON.parse(body) as { messageId: string }).messageId : undefined;
      requests.push({ method: req.method!, url: req.url!, ...(messageId ? { messageId } : {}) });
      if (requests.length === 1) return res.destroy(); // the replica died with the message
      head(res);
      if (req.method === 'GET') return res.end(frame({ type: 'start' }) + frame({ type: 'end', outcome: 'not-received', text: '' }));
      res.end(completedTurn());
    });
    const followed = await followTurn({ gateway: url, thread: 'a b', text: 'hi', random: () => 0 });
    expect(followed).toMatchObject({ resent: 1, end: { outcome: 'completed' } });
    const id = followed.messageId!;
    expect(requests).toEqual([
      { method: 'POST', url: '/threads/a%20b/messages', messageId: id },
      { method: 'GET', url: expect.stringMatching(new RegExp(`^/threads/a%20b/events\\?message=${id}&sent=\\d+$`)) },
      { method: 'POST', url: '/threads/a%20b/messages', messageId: id },
    ]);
    // The ask names when the message was first posted (the lookup's bound and its grace count from then).
    const sent = Number(new URL(requests[1]!.url, url).searchParams.get('sent'));
    expect(Math.abs(Date.now() - sent)).toBeLessThan(10_000);
  });

  it('a replica that did not take the message (503, X-Message-Taken: no) is not asked for it: it goes again after its Retry-After', async () => {
    const requests: Array<{ method: string; url: string; at: number }> = [];
    const url = await scripted((req, res) => {
      requests.push({ method: req.method!, url: req.url!, at: Date.now() });
      if (requests.length === 1) {
        res.writeHead(503, { 'retry-after': '1', 'x-message-taken': 'no', 'content-type': 'application/json' });
        return res.end('{"error":"busy"}');
      }
      if (req.method === 'POST') return res.destroy(); // taken this time, then the replica died
      head(res);
      res.end(frame({ type: 'start' }) + frame({ type: 'end', outcome: 'unknown', text: '' }));
    });
    const error = await followTurn({ gateway: url, thread: 't', text: 'hi', budgetMs: 1_500, random: () => 0 }).catch((e: unknown) => e);
    expect(requests.slice(0, 3).map((r) => r.method)).toEqual(['POST', 'POST', 'GET']);
    // The pause the replica asked for, not the backoff's 125 ms; and it does not grow the backoff.
    expect(requests[1]!.at - requests[0]!.at).toBeGreaterThanOrEqual(950);
    // The grace counts from the POST that was taken, not the one refused.
    const sent = Number(new URL(requests[2]!.url, url).searchParams.get('sent'));
    expect(sent).toBeGreaterThanOrEqual(requests[1]!.at - 50);
    expect(error).toMatchObject({ name: 'GatewayUnreachable', sentAt: sent });
  });

  it('a 503 without X-Message-Taken: no (a replica handing over) may have taken the message: it is asked for', async () => {
    const requests: string[] = [];
    const url = await scripted((req, res) => {
      requests.push(req.method!);
      if (requests.length === 1) {
        res.writeHead(503, { 'content-type': 'application/json' });
        return res.end('{"error":"handing over"}');
      }
      head(res);
      res.end(completedTurn());
    });
    const followed = await followTurn({ gateway: url, thread: 't', text: 'hi', random: () => 0 });
    expect(followed).toMatchObject({ resent: 0, end: { outcome: 'completed' } });
    expect(requests).toEqual(['POST', 'GET']);
  });

  it('a message given with its id and when it was sent is asked for with that time', async () => {
    const urls: string[] = [];
    const url = await scripted((req, res) => {
      urls.push(req.url!);
      head(res);
      res.end(completedTurn());
    });
    await followTurn({ gateway: url, thread: 't', text: 'hi', messageId: 'm-1', sentAt: 1_700_000_000_000 });
    expect(urls).toEqual(['/threads/t/events?message=m-1&sent=1700000000000']);
  });

  it('a lookup that cannot tell (unknown): the message stays pending, asked for again, never sent again', async () => {
    const requests: Array<{ method: string; url: string }> = [];
    const url = await scripted((req, res) => {
      requests.push({ method: req.method!, url: req.url! });
      if (requests.length === 1) return res.destroy(); // the replica died with the message
      head(res);
      if (requests.length <= 3) return res.end(frame({ type: 'start' }) + frame({ type: 'end', outcome: 'unknown', text: '' }));
      res.end(completedTurn());
    });
    const followed = await followTurn({ gateway: url, thread: 't', text: 'hi', random: () => 0 });
    expect(followed).toMatchObject({ resent: 0, end: { outcome: 'completed' } });
    expect(requests.map((r) => r.method)).toEqual(['POST', 'GET', 'GET', 'GET']);
  });

  it('answers that cannot tell are no progress: past the budget the error carries the message id to ask for later', async () => {
    const url = await scripted((req, res) => {
      if (req.method === 'POST') return res.destroy();
      head(res);
      res.end(frame({ type: 'start' }) + frame({ type: 'end', outcome: 'unknown', text: '' }));
    });
    const error = await followTurn({ gateway: url, thread: 't', text: 'hi', budgetMs: 600, random: () => 0 }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'GatewayUnreachable', messageId: expect.any(String) });
  });

  it('a gateway out of reach: backoff that grows with jitter until the budget; the error carries the message id and the position', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/`;
    const gaps: number[] = [];
    let last = Date.now();
    const error = await followTurn({
      gateway: closed,
      thread: 't',
      text: 'hi',
      budgetMs: 800,
      random: () => 0,
      onReconnect: () => {
        gaps.push(Date.now() - last);
        last = Date.now();
      },
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayUnreachable);
    expect(error).toMatchObject({ messageId: expect.any(String) });
    // Each pause twice the one before (125, 250, 500 ms: the jitter at its least), then the budget is spent.
    expect(gaps).toHaveLength(3);
    expect(gaps[2]! - gaps[1]!).toBeGreaterThan(100);
    const position = await followTurn({ gateway: closed, thread: 't', from: '12.t', budgetMs: 100 }).catch((e: unknown) => e);
    expect(position).toMatchObject({ lastEventId: '12.t' });
    for (let attempt = 0; attempt < 12; attempt++) {
      const ceiling = Math.min(5_000, 250 * 2 ** attempt);
      expect([backoff(attempt, () => 0), backoff(attempt, () => 0.999_999)]).toEqual([ceiling / 2, ceiling]);
    }
  });
});
