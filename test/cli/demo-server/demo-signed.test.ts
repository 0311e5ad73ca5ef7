import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../../../demo/serve.js';
import { createA2A, readJwksFile } from '../../../src/node/index.js';
import { runCli } from '../run-cli.js';

// The demo agent's --sign-card, the way the README shows it: `npm run demo-agent -- --sign-card` names
// its JWKS file, and `a4h card URL --trust-jwks FILE --require-signed-card` verifies the card with it.

const SERVE = fileURLToPath(new URL('../../../dist/demo/serve.js', import.meta.url));
let dir: string;
let child: ChildProcess;
let out = '';
let url = '';
let jwksFile = '';
let kid = '';

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-demo-signed-'));
  child = spawn(
    process.execPath,
    [SERVE, '--port', '0', '--memory', join(dir, 'memory.json'), '--sign-card', '--jwks', join(dir, 'jwks.json')],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the demo agent exited (${code}): ${out}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (/check it: .*\n/.test(out)) resolve();
    });
  });
  url = /listening on (\S+)/.exec(out)![1]!;
  [, kid = '', jwksFile = ''] = /signed by key (\S+); the public key \(JWKS\) is in (\S+)/.exec(out) ?? [];
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('the demo agent with --sign-card', () => {
  it('names its key and the JWKS file it wrote, and the command to check it', () => {
    expect(kid).toMatch(/^demo-[0-9a-f]{8}$/);
    expect(jwksFile).toBe(join(dir, 'jwks.json'));
    const jwks = JSON.parse(readFileSync(jwksFile, 'utf8')) as { keys: Record<string, unknown>[] };
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: 'EC', crv: 'P-256', kid, alg: 'ES256', use: 'sig' })]);
    expect(jwks.keys[0]).not.toHaveProperty('d'); // the public half only
    expect(out).toContain(`check it: a4h card ${url} --trust-jwks ${jwksFile} --require-signed-card\n`);
  });

  it('a4h card URL --trust-jwks FILE --require-signed-card: verified by its key', async () => {
    const { code, stdout } = await runCli(['card', url, '--trust-jwks', jwksFile, '--require-signed-card']);
    expect(code).toBe(0);
    expect(stdout).toContain(`Signature: verified by ${kid}\n`);
  });

  it('the library with readJwksFile: the card verifies and a turn under requireSignedCard completes', async () => {
    const a2a = createA2A({
      identitySecret: 'demo signed card test secret 0123',
      trust: { jwks: await readJwksFile(jwksFile), requireSignedCard: true },
    });
    try {
      expect((await firstValueFrom(a2a.card(url))).signature).toEqual({ state: 'verified', kid });
      const end = await lastValueFrom(a2a.turn({ agent: url, handle: 'demo', thread: 'signed', text: 'hello' }));
      expect(end).toMatchObject({ type: 'end', outcome: 'completed' });
    } finally {
      await a2a.close();
    }
  });
});

describe('its flags', () => {
  it('--sign-card and --jwks FILE; --jwks alone and --sign-card with --v03 are refused', () => {
    expect(parseServeArgs(['--sign-card', '--jwks', 'k.json'])).toEqual({
      help: false,
      options: { port: 41241, host: '127.0.0.1', protocol: '1.0', signCard: true, jwksFile: 'k.json' },
    });
    expect(() => parseServeArgs(['--jwks', 'k.json'])).toThrow('--jwks goes with --sign-card');
    expect(() => parseServeArgs(['--sign-card', '--v03'])).toThrow('--sign-card works with v1.0 only');
  });
});
