import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoAgent, type DemoAgent } from '../../demo/agent.js';
import { shortId } from '../../demo/behaviour.js';
import { answeredReply, askQuestion } from '../../demo/reply.js';
import { createA2A } from '../../src/node/create-a2a.js';
import { blocksOf, jsonLines, runCli, SECRET, startCli } from './run-cli.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
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

  it('no secret: a random key, one warning, and a new conversation every process', async () => {
    const run = () => runCli(['send', agent.url, '--json', '--thread', 'restart-3', 'hi'], { env: { A4H_IDENTITY_SECRET: undefined } });
    const [a, b] = [await run(), await run()];
    expect(a.stderr.match(/No identity secret is set/g)).toHaveLength(1);
    expect(endOf(a.stdout).contextId).not.toBe(endOf(b.stdout).contextId);
    expect(endOf(b.stdout).text).toContain('turn 1');
  });
});

describe('a question back, with the demo agent', () => {
  const asked = 'ask what is your favourite city';

  it('a4h chat: "ask …" ends with the agent\'s question; the next line answers it and the agent finishes that task, quoting it', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.url, '--thread', 'ask-chat'], { input: `${asked}\nParis\n` });
    expect(stderr).toContain('your next line answers it');
    expect(stdout).toBe(`${askQuestion(asked)}\n${answeredReply('Paris', { turn: 2, earlier: [asked] })}\n`);
    expect(code).toBe(0);
  });

  it('a library thread: the answer continues the same task (its id), completed, nothing cancelled', async () => {
    const a2a = createA2A({ identitySecret: SECRET });
    try {
      const thread = { agent: agent.url, handle: 'demo', thread: 'ask-library' };
      const first = await lastValueFrom(a2a.turn({ ...thread, text: asked }));
      const second = await lastValueFrom(a2a.turn({ ...thread, text: 'Lisbon' }));
      expect(first).toMatchObject({ type: 'end', outcome: 'input-required', text: askQuestion(asked) });
      expect(second).toMatchObject({ type: 'end', outcome: 'completed', taskId: (first as { taskId?: string }).taskId });
      expect((second as { text: string }).text).toBe(answeredReply('Lisbon', { turn: 2, earlier: [asked] }));
      // The agent's log of this thread: the question, the answer, no cancel.
      const id = shortId((first as { contextId: string }).contextId);
      expect(logged.filter((line) => line.startsWith(id))).toEqual([`${id} turn 1 (ask)`, `${id} turn 2 (answer)`]);
    } finally {
      await a2a.close();
    }
  });
});

describe('a reply or a question that outlives the process that showed it, with the demo agent', () => {
  const asked = 'ask what is your favourite city';

  it('a4h chat shows the question an earlier chat left waiting, and the next line answers it', async () => {
    const first = await runCli(['chat', agent.url, '--thread', 'outlives-chat'], { input: `${asked}\n` });
    expect(first.stdout).toBe(`${askQuestion(asked)}\n`);
    const second = await runCli(['chat', agent.url, '--thread', 'outlives-chat'], { input: 'Porto\n' });
    expect(second.stdout).toBe(`${askQuestion(asked)}\n${answeredReply('Porto', { turn: 2, earlier: [asked] })}\n`);
    expect(second.code).toBe(0);
  });

  it('a4h send --task-id continues the task another process left waiting', async () => {
    const asking = endOf((await runCli(['send', agent.url, '--json', '--thread', 'outlives-send', asked])).stdout) as {
      outcome: string;
      taskId?: string;
    };
    expect(asking.outcome).toBe('input-required');
    const answered = await runCli(['send', agent.url, '--thread', 'outlives-send', '--task-id', asking.taskId!, 'Bilbao']);
    expect(blocksOf(answered.stdout)).toBe(answeredReply('Bilbao', { turn: 2, earlier: [asked] }));
  });

  it("a4h send --task-id with another thread's task is refused before anything is sent; resume --task on a thread likewise, without one the caller vouches", async () => {
    const asking = endOf((await runCli(['send', agent.url, '--json', '--thread', 'doors-hers', asked])).stdout) as { taskId?: string };
    const sent = await runCli(['send', agent.url, '--thread', 'doors-mine', '--task-id', asking.taskId!, 'Bilbao']);
    expect(sent.code).toBe(1);
    expect(sent.stdout).toBe('');
    expect(sent.stderr).toContain(`task "${asking.taskId}" is not this thread's`);
    const resumed = await runCli(['resume', agent.url, '--thread', 'doors-mine', '--task', asking.taskId!]);
    expect([resumed.code, resumed.stdout]).toEqual([1, '']);
    expect(resumed.stderr).toContain("is not this thread's");
    const vouched = await runCli(['resume', agent.url, '--task', asking.taskId!]);
    expect([vouched.code, vouched.stdout]).toEqual([0, `${askQuestion(asked)}\n`]);
  });

  it('a4h resume --message: the reply of the message with that id, or "the agent never got it" (exit 1)', async () => {
    const { stdout } = await runCli(['send', agent.url, '--json', '--thread', 'doors-message', '--message-id', 'cli-msg-1', 'hello there']);
    expect(jsonLines(stdout)[0]).toMatchObject({ type: 'start', messageId: 'cli-msg-1' });
    const found = await runCli(['resume', agent.url, '--thread', 'doors-message', '--message', 'cli-msg-1']);
    expect(found.code).toBe(0);
    expect(found.stdout).toBe(`${(endOf(stdout) as { text: string }).text}\n`);
    const missing = await runCli(['resume', agent.url, '--thread', 'doors-message', '--message', 'cli-msg-2']);
    expect([missing.code, missing.stdout]).toEqual([1, '']);
    expect(missing.stderr).toContain('the agent never got message "cli-msg-2" on thread "doors-message": send it again');
  });

  it('a4h resume with nothing in flight says so and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['resume', agent.url, '--thread', 'outlives-nothing']);
    expect([code, stdout]).toEqual([0, '']);
    expect(stderr).toContain('nothing in flight on thread "outlives-nothing"');
  });

  it('a4h resume shows the whole reply of a send that was killed mid-reply', async () => {
    // A reply of some 25 words over ~4 s: it outlives two process starts on a busy machine.
    const slowAgent = await startDemoAgent({ memoryFile: join(dir, 'slow-memory.json'), chunkDelayMs: 150 });
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
    const start = (line: string) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const child = spawn('npm', ['start', '--silent'], {
          cwd: ROOT,
          env: { ...process.env, NO_COLOR: '1', A4H_DEMO_MEMORY: memory, A4H_IDENTITY_SECRET: '' },
          stdio: ['pipe', 'pipe', 'pipe'],
        });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('close', (code) => {
          clearTimeout(timer);
          resolve({ code, stdout, stderr });
        });
        child.stdin.end(`${line}\n`);
      });
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
  });
});
