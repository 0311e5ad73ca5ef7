/**
 * `a4h conformance`: the smoke check of a live agent, against the demo agent (v1.0 and v0.3) on
 * 127.0.0.1, and against nothing (a closed port). It always says it is not the A2A TCK.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { runCli } from './run-cli.js';

let dir: string;
let v1: DemoAgent;
let v03: DemoAgent;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-conformance-'));
  v1 = await startDemoAgent({ port: 0, memoryFile: join(dir, 'v1.json'), chunkDelayMs: 1 });
  v03 = await startDemoAgent({ port: 0, protocol: '0.3', memoryFile: join(dir, 'v03.json'), chunkDelayMs: 1 });
});
afterAll(async () => {
  await Promise.all([v1.close(), v03.close()]);
  rmSync(dir, { recursive: true, force: true });
});

const TCK_NOTE = /^Note: a smoke check of basic operations from this client, not the A2A TCK/m;

describe('a4h conformance', { timeout: 60_000 }, () => {
  it('a v1.0 agent: every check passes (card, send, get-task, stream, list-tasks, cancel, task-not-found), exit 0', async () => {
    const { code, stdout, stderr } = await runCli(['conformance', v1.url]);
    expect(code, stdout + stderr).toBe(0);
    for (const name of ['card', 'send', 'get-task', 'stream', 'list-tasks', 'cancel', 'task-not-found'])
      expect(stdout, name).toMatch(new RegExp(`^${name}: pass \\(`, 'm'));
    expect(stdout).toMatch(/^cancel: pass \(a completed task: TaskNotCancelableError\)$/m);
    expect(stdout).toMatch(/^task-not-found: pass \(an unknown task id: TaskNotFoundError\)$/m);
    expect(stdout).toMatch(/^Result: 7 checks: 7 pass, 0 fail, 0 skip$/m);
    expect(stdout).toMatch(TCK_NOTE);
  });

  it('a v0.3 agent: list-tasks is skipped (1.x only), the rest pass; -o json is one object with the note', async () => {
    const { code, stdout } = await runCli(['conformance', v03.url, '-o', 'json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      checks: { name: string; status: string }[];
      pass: number;
      fail: number;
      skip: number;
      note: string;
    };
    expect(report.checks.find((check) => check.name === 'list-tasks')?.status).toBe('skip');
    expect(report).toMatchObject({ pass: 6, fail: 0, skip: 1 });
    expect(report.note).toMatch(/not the A2A TCK/);
  });

  it('no agent there: the card check fails, the others do not run, exit 1', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const { code, stdout } = await runCli(['conformance', `http://127.0.0.1:${port}/`, '--timeout', '5']);
    expect(code).toBe(1);
    expect(stdout).toMatch(/^card: fail \(.*connection refused.*\)$/m);
    expect(stdout).toMatch(/^Result: 1 checks: 0 pass, 1 fail, 0 skip$/m);
    expect(stdout).toMatch(TCK_NOTE);
  });
});
