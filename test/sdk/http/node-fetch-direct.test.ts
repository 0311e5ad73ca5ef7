import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync, brotliCompressSync, deflateSync } from 'node:zlib';
import { Agent, fetch as undiciFetch, Headers as UndiciHeaders } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBodyServer } from '../../body-server.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';

/** What the server was asked, per request: method, path, headers and body. */
interface Asked {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let moves = 0;
const routes: Record<string, (res: ServerResponse, asked: Asked) => void> = {
  '/echo': (res, asked) => res.writeHead(200, 'Fine', { 'content-type': 'application/json' }).end(JSON.stringify(asked)),
  '/gzip': (res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(gzipSync('zipped')),
  '/br': (res) => res.writeHead(200, { 'content-encoding': 'br' }).end(brotliCompressSync('brotli')),
  '/deflate': (res) => res.writeHead(200, { 'content-encoding': 'deflate' }).end(deflateSync('deflated')),
  '/none': (res) => res.writeHead(204, { 'x-seen': 'yes' }).end(),
  '/cookies': (res) => res.writeHead(200, { 'set-cookie': ['a=1', 'b=2'], 'x-one': 'one' }).end('ok'),
  '/moved': (res) => {
    moves++;
    res.writeHead(307, { location: '/echo' }).end();
  },
  '/drop': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
    setTimeout(() => res.socket?.destroy(), 30);
  },
  '/slow': (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: 1\n\n');
  },
  '/late': () => undefined,
};

/** A response as a caller sees it: status, its text, headers that are the server's own, the body or its error. */
async function seen(response: Promise<Response>) {
  try {
    const r = await response;
    const headers = [...r.headers].filter(
      ([name]) => !['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'].includes(name),
    );
    const body = r.body === null ? null : await r.text().catch((error: unknown) => failure(error));
    return { status: r.status, statusText: r.statusText, ok: r.ok, url: r.url, headers, cookies: r.headers.getSetCookie(), body };
  } catch (error) {
    return failure(error);
  }
}

/** An error as a caller tells it apart: its class and message, its cause's code or message. */
function failure(error: unknown) {
  const e = error as Error & { cause?: { code?: string; message?: string } };
  return { failed: e.constructor.name, name: e.name, message: e.message, cause: e.cause?.code ?? e.cause?.message };
}

describe("the Node client's fetch on undici's dispatcher answers as undici's fetch does", () => {
  let server: Server;
  let base: string;
  let http: NodeFetch;
  const reference = new Agent();
  // undici's own fetch: what the Node client's fetch stands in for.
  const fetchOf = (input: string, init?: RequestInit) =>
    undiciFetch(input, { ...(init as Parameters<typeof undiciFetch>[1]), dispatcher: reference }) as unknown as Promise<Response>;
  const both = async (path: string, init?: () => RequestInit) => ({
    node: await seen(http.fetch(`${base}${path}`, init?.())),
    undici: await seen(fetchOf(`${base}${path}`, init?.())),
  });

  beforeAll(async () => {
    ({ server, base } = await startBodyServer((req, res, body) => {
      const path = (req.url ?? '').split('?')[0]!;
      routes[path]?.(res, { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    }));
    http = createNodeFetch();
  });
  afterAll(async () => {
    await http.close();
    await reference.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it("sends the method, path, query, body and the caller's headers (names in any case, repeats joined), with fetch's Content-Type for text", async () => {
    const init = (): RequestInit => ({
      method: 'post',
      headers: [
        ['X-Thing', 'a'],
        ['x-thing', 'b'],
        ['Accept', 'text/event-stream'],
        ['User-Agent', 'a4h-test'],
      ],
      body: '{"jsonrpc":"2.0"}',
    });
    const { node, undici } = await both('/echo?page=2', init);
    const asked = JSON.parse((node as { body: string }).body) as Asked;
    const askedByFetch = JSON.parse((undici as { body: string }).body) as Asked;
    expect(asked).toMatchObject({ method: 'POST', path: '/echo?page=2', body: '{"jsonrpc":"2.0"}' });
    // The same headers, fetch's defaults (user-agent, accept-encoding, …) included.
    expect(asked.headers).toEqual(askedByFetch.headers);
    expect(asked.headers['content-type']).toBe('text/plain;charset=UTF-8');
    expect({ ...node, body: '' }).toEqual({ ...undici, body: '' });
  });

  it('takes headers as a Headers of either make, bytes and form fields as bodies', async () => {
    for (const headers of [new Headers({ 'X-Made': 'global' }), new UndiciHeaders({ 'X-Made': 'undici' }) as unknown as Headers]) {
      const { node } = await both('/echo', () => ({ method: 'PUT', headers, body: new TextEncoder().encode('bytes') }));
      const asked = JSON.parse((node as { body: string }).body) as Asked;
      expect(asked.headers['x-made']).toBe(headers.get('x-made'));
      expect(asked.body).toBe('bytes');
    }
    const { node, undici } = await both('/echo', () => ({
      method: 'POST',
      body: new URLSearchParams({ grant_type: 'client_credentials' }),
    }));
    const [asked, askedByFetch] = [node, undici].map((s) => JSON.parse((s as { body: string }).body) as Asked);
    expect(asked!.body).toBe('grant_type=client_credentials');
    expect(asked!.headers['content-type']).toBe(askedByFetch!.headers['content-type']);
  });

  it('answers with the status, its text, the headers (each Set-Cookie apart) and the URL', async () => {
    const { node, undici } = await both('/cookies');
    expect(node).toEqual(undici);
    expect(node).toMatchObject({ status: 200, cookies: ['a=1', 'b=2'], url: `${base}/cookies`, body: 'ok' });
  });

  it('decodes a gzip, brotli or deflate body', async () => {
    for (const [path, text] of [
      ['/gzip', 'zipped'],
      ['/br', 'brotli'],
      ['/deflate', 'deflated'],
    ] as const) {
      const { node, undici } = await both(path);
      expect(node).toMatchObject({ body: text });
      expect(node).toEqual(undici);
    }
  });

  it('has no body for a 204, nor for a HEAD', async () => {
    const none = await both('/none');
    expect(none.node).toMatchObject({ status: 204, body: null });
    expect(none.node).toEqual(none.undici);
    const head = await both('/cookies', () => ({ method: 'HEAD' }));
    expect(head.node).toMatchObject({ body: null });
    expect(head.node).toEqual(head.undici);
  });

  it('redirects as fetch does: followed, refused with "unexpected redirect", or given as it came', async () => {
    const followed = await both('/moved', () => ({ method: 'POST', body: 'x' }));
    expect(followed.node).toMatchObject({ status: 200, url: `${base}/echo` });
    expect(followed.node).toEqual({ ...followed.undici, body: (followed.node as { body: unknown }).body });
    const refused = await both('/moved', () => ({ method: 'POST', body: 'x', redirect: 'error' }));
    expect(refused.node).toEqual({ failed: 'TypeError', name: 'TypeError', message: 'fetch failed', cause: 'unexpected redirect' });
    expect(refused.node).toEqual(refused.undici);
    moves = 0;
    const manual = await seen(http.fetch(`${base}/moved`, { method: 'POST', body: 'x', redirect: 'manual' }));
    expect(manual).toMatchObject({ status: 307, headers: [['location', '/echo']] });
    // Sent once: nothing is tried first to see whether it redirects (undici's fetch would copy the body for that).
    expect(moves).toBe(1);
  });

  it('fails a request that gets no answer with "fetch failed" and its cause, and a body cut short with "terminated"', async () => {
    // A port nothing listens on any more (not one of fetch's "bad ports", which only its own path refuses).
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const nowhere = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
    await new Promise((resolve) => closed.close(resolve));
    const refused = { node: await seen(http.fetch(nowhere)), undici: await seen(fetchOf(nowhere)) };
    expect(refused.node).toEqual({ failed: 'TypeError', name: 'TypeError', message: 'fetch failed', cause: 'ECONNREFUSED' });
    expect(refused.node).toEqual(refused.undici);
    const dropped = await both('/drop');
    expect(dropped.node).toMatchObject({ status: 200, body: { failed: 'TypeError', message: 'terminated', cause: 'UND_ERR_SOCKET' } });
    expect(dropped.node).toEqual(dropped.undici);
  });

  it("aborts with the signal's reason: before the answer, and in its body", async () => {
    const early = await both('/late', () => ({ signal: AbortSignal.timeout(30) }));
    expect(early.node).toMatchObject({ name: 'TimeoutError' });
    expect(early.node).toEqual(early.undici);
    const ahead = new AbortController();
    ahead.abort(new Error('gone'));
    expect(await seen(http.fetch(`${base}/echo`, { signal: ahead.signal }))).toMatchObject({ message: 'gone' });
    for (const fetchIt of [http.fetch, fetchOf]) {
      const controller = new AbortController();
      const response = await fetchIt(`${base}/slow`, { signal: controller.signal });
      const reader = response.body!.getReader();
      expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: 1\n\n');
      controller.abort();
      expect(await reader.read().catch((error: unknown) => failure(error))).toMatchObject({ name: 'AbortError' });
    }
  });

  it('reads a long body with backpressure, all of it, in order', async () => {
    const long = createServer((_req, res) => {
      res.writeHead(200);
      let i = 0;
      const more = () => {
        while (i < 2_000) if (!res.write(`${String(i++).padStart(8, '0')}\n`.repeat(64))) return void res.once('drain', more);
        res.end();
      };
      more();
    });
    await new Promise<void>((resolve) => long.listen(0, '127.0.0.1', resolve));
    try {
      const response = await http.fetch(`http://127.0.0.1:${(long.address() as AddressInfo).port}/`);
      const lines = (await response.text()).trimEnd().split('\n');
      expect(lines).toHaveLength(128_000);
      expect(lines[64 * 1999]).toBe('00001999');
    } finally {
      long.closeAllConnections();
      await new Promise((resolve) => long.close(resolve));
    }
  });
});
