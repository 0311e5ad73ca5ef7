/**
 * `a4h auth login` against hostile OAuth endpoints on loopback: one that never answers, one that
 * answers its headers and then a byte a second, one that answers 200 MB (streamed, never held by
 * the test). Both flows (client credentials, `--device`) end within their bound with one line naming
 * the endpoint (its query redacted), and the 200 MB answer is dropped at the reader's bound: the
 * process's peak RSS stays small.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../run-cli.js';
import { answerTrickle } from '../../body-server.js';

/** The endpoints' behaviours, by path. */
type Behaviour = 'silent' | 'trickle' | 'huge' | 'device';
const HUGE_BYTES = 200 * 1024 * 1024;

let server: Server;
let base: string;
let root: string;
/** What each request to `/huge` was sent before the client hung up. */
const hugeSent: number[] = [];
const timers = new Set<NodeJS.Timeout>();

/** 200 MB of JSON-looking bytes, written with backpressure until the client stops reading or hangs up; no content-length. */
function answerHuge(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  const index = hugeSent.push(0) - 1;
  const pump = (): void => {
    while (sent < HUGE_BYTES && !res.destroyed) {
      sent += chunk.length;
      hugeSent[index] = sent;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    if (!res.destroyed) res.end();
  };
  pump();
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'a4h-auth-bounds-'));
  // Prints the process's peak RSS (kilobytes) as it exits: stderr is a pipe, written synchronously on Linux.
  writeFileSync(
    join(root, 'rss.cjs'),
    "process.on('exit', () => process.stderr.write(`peak-rss-kb ${process.resourceUsage().maxRSS}\\n`));\n",
  );
  server = createServer((req, res) => {
    req.resume();
    const behaviour = new URL(req.url ?? '/', 'http://x').pathname.slice(1) as Behaviour;
    if (behaviour === 'silent') return;
    if (behaviour === 'huge') return answerHuge(res);
    if (behaviour === 'device') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ device_code: 'dc-1', user_code: 'ABCD-EFGH', verification_uri: 'https://idp.example/device', interval: 1 }));
      return;
    }
    answerTrickle(res, timers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const timer of timers) clearInterval(timer);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(root, { recursive: true, force: true });
});

const env = () => ({ XDG_CONFIG_HOME: join(root, 'xdg'), S: 'client-secret-b7c6d5', NODE_OPTIONS: `--require ${join(root, 'rss.cjs')}` });

/** `auth login` of either flow with the endpoint given (`--oauth-token-url`, or `--oauth-device-url`), bounded by `--timeout 2`. */
async function login(flow: 'client credentials' | 'device', token: string, device = `${base}/device`) {
  const args = ['auth', 'login', `${base}/agent/`, '--oauth-client-id', 'cli', '--oauth-client-secret-env', 'S', '--oauth-scope', 'a2a'];
  args.push('--oauth-token-url', token, '--timeout', '2');
  if (flow === 'device') args.push('--device', '--oauth-device-url', device);
  const started = Date.now();
  const result = await runCli(args, { env: env(), timeoutMs: 30_000 });
  const peak = Number(/peak-rss-kb (\d+)/.exec(result.stderr)?.[1]);
  return { ...result, ms: Date.now() - started, peakMb: peak / 1024 };
}

describe('a4h auth login: every request bounded in time and size', { timeout: 60_000 }, () => {
  for (const flow of ['client credentials', 'device'] as const) {
    for (const behaviour of ['silent', 'trickle'] as const) {
      it(`${flow}: a ${behaviour} token endpoint ends with a timeout naming it (exit 5), within --timeout`, async () => {
        const run = await login(flow, `${base}/${behaviour}?tenant=hidden-tenant`);
        expect(run.code, run.stderr).toBe(5);
        expect(run.stderr).toContain(`the token endpoint ${base}/${behaviour}?tenant=*** did not answer in time`);
        expect(run.stderr).not.toContain('hidden-tenant');
        expect(run.ms).toBeLessThan(10_000);
      });
    }
    it(`${flow}: a 200 MB answer is dropped at 64 KiB; the process stays small`, async () => {
      const from = hugeSent.length;
      const run = flow === 'device' ? await login(flow, `${base}/silent`, `${base}/huge`) : await login(flow, `${base}/huge`);
      expect(run.code, run.stderr).toBe(4);
      expect(run.stderr).toMatch(new RegExp(`the (device authorization|token) endpoint ${base}/huge answered more than 65536 bytes`));
      expect(run.ms).toBeLessThan(10_000);
      expect(run.peakMb).toBeLessThan(200);
      expect(hugeSent.slice(from)[0]).toBeLessThan(HUGE_BYTES);
    });
  }

  it('device: a silent device authorization endpoint ends with a timeout naming it', async () => {
    const run = await login('device', `${base}/silent`, `${base}/silent?k=hidden-key`);
    expect(run.code, run.stderr).toBe(5);
    expect(run.stderr).toContain(`the device authorization endpoint ${base}/silent?k=*** did not answer in time`);
    expect(run.ms).toBeLessThan(10_000);
  });
});
