/**
 * Every example script (and the demo's `npm start`) answers `--help` with its usage on stdout, exit 0,
 * and a flag it does not take with what is wrong and its usage on stderr, exit 2: never a traceback,
 * and nothing started (no agent, no server, no build).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { childOutput, type ChildOutput } from '../child-output.js';
import { ROOT } from '../packed.js';

const SCRIPTS = [
  'examples/gateway/start.mjs',
  'examples/gateway/client.mjs',
  'examples/gateway/gateway.mjs',
  'examples/gateway/token.mjs',
  'examples/node/history.mjs',
  'examples/node/platform.mjs',
  'examples/node/second-message.mjs',
  'examples/node/store.mjs',
  'examples/node/thread.mjs',
  'examples/node/turn.mjs',
  'examples/web-chat/server.mjs',
  'examples/web-chat/build.mjs',
  'examples/react-chat/server.mjs',
  'examples/react-chat/build.mjs',
  'examples/angular/server.mjs',
  'examples/angular/setup.mjs',
  'dist/demo/start.js',
];

/** Runs `node script …args` from the checkout, with no secret and nothing on stdin; bounded. */
function run(script: string, args: string[]): Promise<ChildOutput> {
  const child = spawn(process.execPath, [join(ROOT, script), ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childOutput(child);
}

/** What a Node traceback looks like: a stack frame, or Node's own source line. */
const TRACEBACK = /^\s+at |node:internal|\n\s+\^\n/m;

describe('the example scripts’ command lines', () => {
  for (const script of SCRIPTS) {
    it(`${script} --help: its usage, exit 0`, async () => {
      const { code, stdout, stderr } = await run(script, ['--help']);
      expect(stderr).not.toMatch(TRACEBACK);
      expect(stdout).toMatch(/^Usage: /m);
      expect(code).toBe(0);
    });

    it(`${script} --no-such-flag: what is wrong and its usage on stderr, exit 2`, async () => {
      const { code, stderr } = await run(script, ['--no-such-flag']);
      expect(stderr).not.toMatch(TRACEBACK);
      expect(stderr).toContain('--no-such-flag');
      // The demo's npm start hands its flags to a4h chat, which names its own --help.
      expect(stderr).toMatch(/Usage: |a4h chat --help/);
      expect(code).toBe(2);
    });
  }
});
