/** `a4h demo-server`: the bundled demo agent as a command of the package, on loopback, stopped by a signal. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, startCli } from '../run-cli.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-demo-server-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a4h demo-server', { timeout: 60_000 }, () => {
  it('starts the demo agent on a free loopback port, answers a4h send, and exits 0 on SIGTERM', async () => {
    const server = startCli(['demo-server', '--port', '0', '--memory', join(dir, 'memory.json')], { timeoutMs: 60_000 });
    const LISTENING = /listening on (http:\/\/127\.0\.0\.1:\d+\/?)/;
    await server.waitFor(LISTENING);
    const url = LISTENING.exec(server.output())![1]!;
    const turn = await runCli(['send', url, '--thread', 'demo-server', 'hello there']);
    expect(turn.code, turn.stderr).toBe(0);
    expect(turn.stdout).toMatch(/turn 1 of our conversation/);
    server.child.kill('SIGTERM');
    const { code, stderr } = await server.result;
    expect(code).toBe(0);
    expect(stderr).toMatch(/SIGTERM received, closing/);
  });

  it('--help: the command and the demo agent flags, exit 0; a bad flag: the demo agent says so, exit 1', async () => {
    const help = await runCli(['demo-server', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: a4h demo-server /);
    expect(help.stdout).toMatch(/--sign-card/);
    const bad = await runCli(['demo-server', '--host', '0.0.0.0']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--host must be a loopback address/);
  });
});
