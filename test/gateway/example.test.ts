/**
 * `npm run example:gateway` as a user runs it (examples/gateway/start.mjs): it prints haproxy's URL,
 * the printed client command gets a reply through it, and Ctrl+C leaves no process behind.
 */
import { execFile, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { eventually } from '../eventually.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

/** Whether a process with this pid is alive. */
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('npm run example:gateway', { timeout: 60_000 }, () => {
  it('starts the agent, three replicas and haproxy; the printed client command gets a reply; Ctrl+C stops them all', async () => {
    const child = spawn(process.execPath, ['examples/gateway/start.mjs', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await eventually(() => out.includes('Ctrl+C stops everything'), 20_000);
      const url = /The gateway: (\S+)/.exec(out)![1]!;
      const pids = [...out.matchAll(/[ABC]: (\d+)/g)].map((m) => Number(m[1]));
      expect(pids).toHaveLength(3);
      expect(out).toContain(`node examples/gateway/client.mjs ${url} my-thread`);
      const { stdout, stderr } = await run(process.execPath, ['examples/gateway/client.mjs', url, 'my-thread', 'hello', 'gateway'], {
        cwd: ROOT,
      });
      expect(stdout).toContain('Hello! This is turn 1 of our conversation.');
      expect(stderr).toMatch(/\[completed; replicas: [ABC]\]/);
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await eventually(() => pids.every((pid) => !alive(pid)), 5_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
