/**
 * `send --json` against an agent that says "not now" (HTTP 503 with `Retry-After`) for longer than
 * the client waits: the error line says when to try again, as the library's error does.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonLines, runCli } from './run-cli.js';

let busy: Server;
let agent: string;
let asked = 0;

beforeAll(async () => {
  busy = createServer((_req, res) => {
    asked++;
    res.writeHead(503, { 'retry-after': '120', 'content-type': 'text/plain' }).end('down for maintenance');
  });
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  agent = `http://127.0.0.1:${(busy.address() as AddressInfo).port}/`;
});

afterAll(async () => {
  await new Promise((resolve) => busy.close(resolve));
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
