/**
 * `send --json` against an agent that says "not now" (HTTP 503 with `Retry-After`) for longer than
 * the client waits: the error line says when to try again, as the library's error does. With `-o json`
 * a 503, of the card or of a call, is the specification's unreachable (exit 3), not an internal error.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from '../run-cli.js';

let busy: Server;
let agent: string;
let asked = 0;
/** An agent whose card is served but whose every call is answered 503 (no Retry-After). */
let overloaded: Server;
let overloadedAgent: string;

beforeAll(async () => {
  busy = createServer((_req, res) => {
    asked++;
    res.writeHead(503, { 'retry-after': '120', 'content-type': 'text/plain' }).end('down for maintenance');
  });
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  agent = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/`;
  overloaded = createServer((req, res) => {
    const base = `http://127.0.0.1:${(overloaded.address() as AddressInfo).port}/`;
    if (req.method === 'GET') {
      const card = { name: 'overloaded', supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }] };
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
    }
    req.resume();
    req.on('end', () => res.writeHead(503, { 'content-type': 'text/plain' }).end('overloaded'));
  });
  await new Promise<void>((resolve) => overloaded.listen(0, '127.0.0.1', resolve));
  overloadedAgent = `http://127.0.0.1:${(overloaded.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
  await new Promise((resolve) => overloaded.close(resolve));
});

describe('send --json and a 503 with Retry-After past retryAfter.maxWaitMs', () => {
  it('ends with an error line carrying retryAfterMs and retryAt; the card was asked once (the wait is not begun)', async () => {
    const before = Date.now();
    const { stdout } = await runCli(['send', agent, '--json', 'hi']);
    const line = jsonLines(stdout).at(-1)!;
    expect(line).toMatchObject({ type: 'error', kind: 'card', status: 503, retryable: true, retryAfterMs: 120_000 });
    expect(line.retryAt).toBeGreaterThanOrEqual(before + 120_000);
    expect(asked).toBe(1);
  });
});

describe('send -o json and a 503', { timeout: 60_000 }, () => {
  it("a call answered 503: the specification's A2ACLI_ERR_UNREACHABLE, exit 3, the status as a2aCode", async () => {
    const { code, stdout } = await runCli(['send', overloadedAgent, '-o', 'json', 'hi'], { timeoutMs: 50_000 });
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE', a2aCode: 503 } });
    expect(code).toBe(3);
  });

  it('a card answered 503: A2ACLI_ERR_UNREACHABLE too (it is there, not serving now), exit 3', async () => {
    const { code, stdout } = await runCli(['send', agent, '-o', 'json', 'hi']);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE', a2aCode: 503 } });
    expect(code).toBe(3);
  });
});
