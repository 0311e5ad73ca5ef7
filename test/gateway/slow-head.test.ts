/**
 * A slow-loris client: a request head trickled a few bytes at a time and never finished. A replica
 * cuts it within the documented bound (docs/replicas.md: "head in 10 s"), not at Node's next
 * connections check (every 30 s by default, about 29 s seen). The bound is made short here so the
 * test takes about a second; the default is checked against the docs.
 */
import { readFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkingIntervalMs, HEADERS_TIMEOUT_MS, startGateway, type Gateway } from '../../examples/gateway/replica.mjs';

const gateways: Gateway[] = [];
afterEach(async () => {
  await Promise.all(gateways.splice(0).map((gateway) => gateway.close()));
});

/** A replica whose head bound is `headersTimeoutMs` (its agent unreachable: nothing here reaches one). */
async function replica(headersTimeoutMs: number): Promise<Gateway> {
  const gateway = await startGateway({
    agent: 'http://127.0.0.1:9/',
    secret: 'slow-head-test-secret-not-for-production',
    name: 'slow-head',
    verify: async () => 'ada',
    headersTimeoutMs,
    log: () => undefined,
  });
  gateways.push(gateway);
  return gateway;
}

/** Opens a connection, sends `first`, then `next(n)` every `everyMs` (never the blank line that ends a head); resolves with the ms until the replica closed it. */
function trickle(url: string, first: string, everyMs: number, next: (n: number) => string): Promise<{ ms: number; answer: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const started = Date.now();
    let answer = '';
    let n = 0;
    let timer: ReturnType<typeof setInterval> | undefined;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      if (first !== '') socket.write(first);
      timer = setInterval(() => socket.write(next(n++)), everyMs);
    });
    socket.on('data', (chunk: string) => (answer += chunk));
    socket.on('error', () => undefined); // a reset is a cut too
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ ms: Date.now() - started, answer });
    });
    setTimeout(() => {
      clearInterval(timer);
      socket.destroy();
      reject(new Error('the replica never cut the slow head'));
    }, 10_000).unref();
  });
}

describe('a request head that never finishes', { timeout: 15_000 }, () => {
  it('trickled a header line every 100 ms: cut within the bound and a little (1 s bound: by 1.5 s), never answered', async () => {
    const gateway = await replica(1_000);
    const { ms, answer } = await trickle(
      gateway.url,
      'POST /threads/t/messages HTTP/1.1\r\nHost: 127.0.0.1\r\n',
      100,
      (n) => `X-Slow-${n}: ${'x'.repeat(8)}\r\n`,
    );
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1_500);
    expect(answer).not.toMatch(/^HTTP\/1\.1 2/);
  });

  it('a request line sent one character every 100 ms, never ended: cut as soon', async () => {
    const gateway = await replica(1_000);
    const { ms, answer } = await trickle(gateway.url, 'POST /threads/', 100, () => 'a');
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(1_500);
    expect(answer).not.toMatch(/^HTTP\/1\.1 2/);
  });

  it('the default bound is the 10 s docs/replicas.md gives, checked every second (cut by 11 s, not at Node’s 30 s check)', async () => {
    expect(HEADERS_TIMEOUT_MS).toBe(10_000);
    expect(checkingIntervalMs(HEADERS_TIMEOUT_MS)).toBe(1_000);
    expect(checkingIntervalMs(1_000)).toBe(100);
    const page = await readFile(new URL('../../docs/replicas.md', import.meta.url), 'utf8');
    expect(page).toMatch(/\| request \| head in 10 s \(Node and haproxy; a replica checks its requests every second/);
  });
});
