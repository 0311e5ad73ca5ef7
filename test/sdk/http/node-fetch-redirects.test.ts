import { type Server } from 'node:http';
import { Request as UndiciRequest } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startBodyServer } from '../../body-server.js';
import { createNodeFetch, type NodeFetch } from '../../../src/node/fetch.js';

/** What the server was asked: method, path and body, in order. */
interface Asked {
  method: string;
  path: string;
  body: string;
}

describe("the Node client's fetch: no copy of the body for redirects, redirects as before", () => {
  let server: Server;
  let base: string;
  let http: NodeFetch;
  const asked: Asked[] = [];
  beforeAll(async () => {
    ({ server, base } = await startBodyServer((req, res, body) => {
      asked.push({ method: req.method ?? '', path: req.url ?? '', body });
      if (req.url === '/moved') {
        res.writeHead(307, { location: '/here' }).end();
      } else if (req.url === '/gone-away') {
        res.writeHead(302, { location: '/here' }).end();
      } else {
        res.writeHead(200, { 'content-type': 'text/plain' }).end(`${req.method} ${req.url} ${body}`);
      }
    }));
    http = createNodeFetch();
  });
  afterAll(async () => {
    await http.close();
    await new Promise((resolve) => server.close(resolve));
  });
  afterEach(() => {
    asked.length = 0;
    vi.restoreAllMocks();
  });

  it('sends a request with a text body without teeing it (undici copies it only to follow a redirect)', async () => {
    const tee = vi.spyOn(ReadableStream.prototype, 'tee');
    const response = await http.fetch(`${base}/here`, { method: 'POST', body: '{"jsonrpc":"2.0"}' });
    expect(await response.text()).toBe('POST /here {"jsonrpc":"2.0"}');
    expect(tee).not.toHaveBeenCalled();
    expect(asked).toEqual([{ method: 'POST', path: '/here', body: '{"jsonrpc":"2.0"}' }]);
  });

  it('still follows a 307 with the same method and body: the redirected request is sent once more, then followed', async () => {
    const response = await http.fetch(`${base}/moved`, { method: 'POST', body: 'hello' });
    expect(response.status).toBe(200);
    expect(response.redirected).toBe(true);
    expect(response.url).toBe(`${base}/here`);
    expect(await response.text()).toBe('POST /here hello');
    expect(asked).toEqual([
      { method: 'POST', path: '/moved', body: 'hello' },
      { method: 'POST', path: '/moved', body: 'hello' },
      { method: 'POST', path: '/here', body: 'hello' },
    ]);
  });

  it("follows a 302 of a POST as fetch does (as a GET), and a GET's redirect", async () => {
    const post = await http.fetch(`${base}/gone-away`, { method: 'POST', body: 'x' });
    expect(await post.text()).toBe('GET /here ');
    const get = await http.fetch(`${base}/moved`);
    expect(await get.text()).toBe('GET /here ');
  });

  it("gives a caller who asked for 'manual' the redirect itself", async () => {
    const response = await http.fetch(`${base}/moved`, { method: 'POST', body: 'x', redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe('/here');
    expect(asked.at(-1)).toEqual({ method: 'POST', path: '/moved', body: 'x' });
    expect(asked.some((a) => a.path === '/here')).toBe(false);
  });

  it("gives a caller who asked for 'error' undici's error, after one request", async () => {
    const failed = await http.fetch(`${base}/moved`, { method: 'POST', body: 'x', redirect: 'error' }).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(TypeError);
    expect(((failed as TypeError).cause as Error).message).toBe('unexpected redirect');
    expect(asked).toEqual([{ method: 'POST', path: '/moved', body: 'x' }]);
  });

  it('sends a stream body as it is (it cannot be sent twice), and a Request as it was made', async () => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    const streamed = await http.fetch(`${base}/here`, { method: 'POST', body, duplex: 'half' } as RequestInit);
    expect(await streamed.text()).toBe('POST /here streamed');
    const made = new UndiciRequest(`${base}/moved`, { method: 'POST', body: 'as a Request' });
    const request = await http.fetch(made as unknown as Request);
    expect(await request.text()).toBe('POST /here as a Request');
    expect(asked.filter((a) => a.path === '/moved')).toHaveLength(1);
  });
});
