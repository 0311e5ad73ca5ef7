/**
 * `npm run example:gateway` as a user runs it (examples/gateway/start.mjs): it prints haproxy's URL
 * and a token to try, the printed client command gets a reply through it with that token (and names
 * the replica that serves it), without one it is refused, and Ctrl+C leaves no process behind.
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
  it('starts the agent, three replicas and haproxy; the printed client command gets a reply with the printed token; Ctrl+C stops them all', async () => {
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
      const token = /export A4H_GATEWAY_TOKEN=(\S+)/.exec(out)![1]!;
      const client = ['examples/gateway/client.mjs', url, 'my-thread', 'hello', 'gateway'];
      const env = { ...process.env, A4H_GATEWAY_TOKEN: token };
      const { stdout, stderr } = await run(process.execPath, client, { cwd: ROOT, env });
      expect(stdout).toContain('Hello! This is turn 1 of our conversation.');
      expect(stderr).toMatch(/^\[via replica ([ABC])\]\n[\s\S]*\[completed; replicas: \1\]/);
      const { A4H_GATEWAY_TOKEN: _none, ...without } = env;
      const refused = await run(process.execPath, client, { cwd: ROOT, env: without }).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('401') });
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      await eventually(() => pids.every((pid) => !alive(pid)), 5_000);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
