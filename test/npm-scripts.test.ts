/**
 * The npm scripts that start something long-running: stopping the process one started (`kill <pid of
 * npm …>`) stops everything it started. npm signals the shell it runs a script in, and a shell that
 * runs `a && node …` dies without passing the signal on, so each such script ends in `exec node …`
 * (the shell becomes that process). Each case starts the script in a process group of its own, sends
 * SIGTERM to npm alone, and waits for the whole group to be gone. Needs `npm run build`.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from './packed.js';

let dir = '';
beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'demo', 'start.js'))) throw new Error('dist/demo is missing: run `npm run build` first');
  dir = mkdtempSync(join(tmpdir(), 'a4h-npm-scripts-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether any process of group `pgid` is alive. */
const groupAlive = (pgid: number): boolean => {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Resolves true once `check` is true, false after `ms`. */
const within = async (ms: number, check: () => boolean): Promise<boolean> => {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) if (check()) return true;
  return check();
};

/** Whether something accepts connections at `url`. */
const listening = (url: string): Promise<boolean> =>
  new Promise((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname, () => (socket.destroy(), resolve(true)));
    socket.on('error', () => resolve(false));
  });

/**
 * `npm <args>` in a new process group, its output collected; resolves once `ready` matches stdout +
 * stderr. Its input is a pipe that stays open (from `sleep`, as a shell's `sleep 60 | npm start`
 * gives), not Node's socket pair.
 */
async function startNpm(
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
): Promise<{ npm: ChildProcess; output: () => string; stop: () => void }> {
  const input = spawn('sleep', ['60'], { stdio: ['ignore', 'pipe', 'ignore'] });
  const npm = spawn('npm', args, {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: [input.stdout, 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  const seen = new Promise<void>((resolve, reject) => {
    const look = (chunk: Buffer) => {
      output += chunk.toString();
      if (ready.test(output)) resolve();
    };
    npm.stdout!.on('data', look);
    npm.stderr!.on('data', look);
    npm.on('exit', () => reject(new Error(`npm ${args.join(' ')} ended early:\n${output}`)));
  });
  await seen.catch((error: unknown) => {
    input.kill();
    throw error;
  });
  const stop = (): void => {
    if (groupAlive(npm.pid!)) process.kill(-npm.pid!, 'SIGKILL');
    input.kill();
  };
  return { npm, output: () => output, stop };
}

describe('kill -TERM <pid of npm …> stops everything the script started', () => {
  it('npm run demo-agent: the agent stops listening and exits', async () => {
    const memory = join(dir, 'agent.json');
    const { npm, output, stop } = await startNpm(['run', 'demo-agent', '--', '--port', '0', '--memory', memory], {}, /listening on (\S+)/);
    const url = /listening on (\S+)/.exec(output())![1]!;
    try {
      expect(await listening(url)).toBe(true);
      process.kill(npm.pid!, 'SIGTERM');
      expect(await within(8_000, () => !groupAlive(npm.pid!)), output()).toBe(true);
      expect(await listening(url)).toBe(false);
    } finally {
      stop();
    }
  });

  it('npm start: the chat and its demo agent both exit', async () => {
    const { npm, output, stop } = await startNpm(
      ['start', '--', '--thread', 'sigterm'],
      { A4H_DEMO_MEMORY: join(dir, 'start.json'), A4H_IDENTITY_SECRET: '' },
      /chatting with/,
    );
    try {
      // The chat waits on its input, which stays open: only the signal can end it.
      process.kill(npm.pid!, 'SIGTERM');
      expect(await within(8_000, () => !groupAlive(npm.pid!)), output()).toBe(true);
    } finally {
      stop();
    }
  });

  it('every script that starts a server or a chat hands npm its process (`exec node …` last)', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    for (const name of ['start', 'demo-agent', 'example:web-chat', 'example:angular', 'example:gateway']) {
      expect(scripts[name], name).toMatch(/(^|&& )exec node [^&|;]+$/);
    }
  });
});

describe('npm start, as a person at a terminal runs it', () => {
  it("npm start -- --help: what npm start takes and the port its agent uses (not a4h chat's usage); nothing starts", async () => {
    const run = spawnSync('npm', ['start', '--silent', '--', '--help'], { cwd: ROOT, encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/^Usage: npm start /);
    expect(run.stdout).toContain('http://127.0.0.1:41241/');
    expect(run.stdout).not.toContain('Usage: a4h chat');
  });

  // `script` (util-linux) gives npm a terminal: Ctrl-C at the prompt is a keystroke the chat reads.
  it.skipIf(!existsSync('/usr/bin/script'))('Ctrl-C at the prompt leaves, and no spinner glyph is drawn after it', async () => {
    const term = spawn('script', ['-qfec', 'npm start -- --thread ctrl-c', '/dev/null'], {
      cwd: ROOT,
      env: { ...process.env, A4H_DEMO_MEMORY: join(dir, 'ctrl-c.json'), A4H_IDENTITY_SECRET: '', TERM: 'xterm' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    const prompted = new Promise<void>((resolve) =>
      term.stdout.on('data', (chunk: Buffer) => {
        screen += chunk.toString();
        if (screen.includes('you ›')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => term.on('close', resolve));
    const timer = setTimeout(() => term.kill('SIGKILL'), 20_000);
    try {
      await prompted;
      const before = screen.length;
      term.stdin.write('\x03');
      expect(await exited).toBe(0);
      // npm's progress spinner (⠋⠙⠹…, or -\|/ without Unicode) redrawn once the script ended.
      expect(screen.slice(before)).not.toMatch(/[\u2800-\u28ff]/);
    } finally {
      clearTimeout(timer);
    }
  });
});
