import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../../demo/agent.js';
import { answeredReply, askQuestion } from '../../../demo/reply.js';
import { childOutput } from '../../child-output.js';
import { jsonLines, runCli, SECRET, startCli } from '../run-cli.js';

// Each a4h run is a process, slow to start on a busy machine: each test gets room.
vi.setConfig({ testTimeout: 60_000 });
const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
let dir: string;
let agent: DemoAgent;
/** The demo agent's log: a line per turn and per cancel. */
const logged: string[] = [];
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-demo-test-'));
  agent = await startDemoAgent({ memoryFile: join(dir, 'memory.json'), chunkDelayMs: 1, log: (line) => logged.push(line) });
});
afterAll(async () => {
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

const endOf = (stdout: string) => jsonLines(stdout).at(-1) as { type: string; text: string; contextId: string; outcome: string };

describe('continuity across processes, with the demo agent', () => {
  it('two separate processes on one thread: same contextId, and the agent recalls the earlier turn', async () => {
    const first = endOf((await runCli(['send', agent.url, '--json', '--thread', 'restart-1', 'my name is Ada'])).stdout);
    const second = endOf((await runCli(['send', agent.url, '--json', '--thread', 'restart-1', 'what is my name?'])).stdout);
    expect(first).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(first.text).toContain('turn 1');
    expect(second.contextId).toBe(first.contextId);
    expect(second.text).toContain('turn 2');
    expect(second.text).toContain('my name is Ada');
  });

  it('another secret is another conversation', async () => {
    const mine = endOf((await runCli(['send', agent.url, '--json', '--thread', 'restart-2', 'one'])).stdout);
    const theirs = endOf(
      (await runCli(['send', agent.url, '--json', '--thread', 'restart-2', 'two'], { env: { A4H_IDENTITY_SECRET: `${SECRET} (other)` } }))
        .stdout,
    );
    expect(theirs.contextId).not.toBe(mine.contextId);
    expect(theirs.text).toContain('turn 1');
  });

  it('no secret: send --thread is refused (its conversation could not continue), and each send without it is a new conversation', async () => {
    const env = { A4H_IDENTITY_SECRET: undefined };
    const refused = await runCli(['send', agent.url, '--thread', 'restart-3', 'hi'], { env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('A4H_IDENTITY_SECRET');
    const run = () => runCli(['send', agent.url, '--json', 'hi'], { env });
    const [a, b] = [await run(), await run()];
    expect(endOf(a.stdout).contextId).not.toBe(endOf(b.stdout).contextId);
    expect(endOf(b.stdout).text).toContain('turn 1');
  });

  it('a4h resume shows the whole reply of a send that was killed mid-reply', async () => {
    // A reply of some 25 words over ~7 s: it outlives two process starts on a busy machine.
    const slowAgent = await startDemoAgent({ memoryFile: join(dir, 'slow-memory.json'), chunkDelayMs: 300 });
    try {
      const sending = startCli(['send', slowAgent.url, '--json', '--thread', 'outlives-kill', 'tell me something']);
      await sending.waitFor(/"type":"text"/);
      sending.child.kill('SIGKILL');
      await sending.result;
      const { code, stdout } = await runCli(['resume', slowAgent.url, '--json', '--thread', 'outlives-kill']);
      const events = jsonLines(stdout) as { type: string; text?: string; replace?: boolean; outcome?: string }[];
      const end = events.at(-1)!;
      expect([code, end.type, end.outcome]).toEqual([0, 'end', 'completed']);
      expect(end.text).toContain('This is turn 1');
      const folded = events.reduce((r, e) => (e.type === 'text' ? (e.replace ? e.text! : r + e.text!) : r), '');
      expect(folded).toBe(end.text);
    } finally {
      await slowAgent.close();
    }
  });
});

describe('npm start', () => {
  it('starts the demo agent and answers piped lines, then remembers them on the next start, and the question it asked', async () => {
    const memory = join(dir, 'npm-start.json');
    const start = (line: string) => {
      const child = spawn('npm', ['start', '--silent'], {
        cwd: ROOT,
        env: { ...process.env, NO_COLOR: '1', A4H_DEMO_MEMORY: memory, A4H_IDENTITY_SECRET: '' },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const output = childOutput(child);
      child.stdin.end(`${line}\n`);
      return output;
    };
    const asked = 'ask my favourite colour';
    const first = await start(`hello from the first run\n${asked}`);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('public demo identity secret');
    expect(first.stdout).toContain('turn 1');
    expect(first.stdout).toContain(askQuestion(asked));
    // Both the agent and the chat restarted: the agent kept the waiting task, the chat shows its question first.
    const second = await start('blue');
    expect(second.stdout).toBe(
      `${askQuestion(asked)}\n${answeredReply('blue', { turn: 3, earlier: ['hello from the first run', asked] })}\n`,
    );
  }, 60_000);
});
