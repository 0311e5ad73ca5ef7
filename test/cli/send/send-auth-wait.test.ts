/**
 * `a4h send` and a task that waits for a sign-in mid-task (A2A 1.0 §7.6): an agent on @a2a-js/sdk 1.3
 * enters AUTH_REQUIRED and goes on by itself one second later. Every output mode shows the sign-in request
 * at once and follows the task to its answer; `--timeout` ends the wait (exit 5, the task named and left
 * as it is); `--async` does not wait; `--json` is the library's turn, event for event.
 */
import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RESUME_MOUNTS, AUTH_RESUME_TEXTS, startAuthResumeAgent } from '../../../fixtures/agent-auth-resume.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { createA2A } from '../../../src/node/index.js';
import { jsonLines, runCli, SECRET, startCli, type CliRun } from '../run-cli.js';

const SIGN_IN = `the agent needs you to sign in: ${AUTH_RESUME_TEXTS.prompt}`;

let agent: FixtureAgent;
let url: string;
beforeAll(async () => {
  agent = await startAuthResumeAgent();
  url = agent.url(AUTH_RESUME_MOUNTS.main);
});
afterAll(async () => {
  await agent.close();
});

/** Resolves when stderr has shown `text` (polled: run-cli waits on stdout only). */
async function stderrShows(run: CliRun, text: string): Promise<void> {
  while (!run.stderr().includes(text)) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The CancelTasks the agent received so far. */
const cancels = () => agent.received.filter((request) => request.method === 'CancelTask').length;

describe('a4h send: a task at AUTH_REQUIRED that the agent resumes by itself', () => {
  it('text: the sign-in request on stderr at once, then the answer once the agent went on (exit 0)', async () => {
    const run = startCli(['send', url, 'hello']);
    await stderrShows(run, SIGN_IN);
    // Shown while the task still waits: nothing on stdout yet, the command still running.
    expect(run.output()).toBe('');
    expect(run.child.exitCode).toBeNull();
    const { code, stdout, stderr } = await run.result;
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Task ID: .+\nContext ID: .+\nState: TASK_STATE_COMPLETED\nArtifact: answer\n/);
    expect(stdout).toContain(AUTH_RESUME_TEXTS.answer);
    expect(stderr).toMatch(
      /task \S+ waits for sign-in \(TASK_STATE_AUTH_REQUIRED\); waiting for the agent to go on, until --timeout \(30 min\)/,
    );
    expect(stderr).toContain('the agent went on: TASK_STATE_WORKING');
    expect(stderr).not.toContain('the task waits for you');
  });

  it('-o json: one document, the completed task with its answer', async () => {
    const { code, stdout, stderr } = await runCli(['send', url, '-o', 'json', 'hello']);
    expect(code).toBe(0);
    const { task } = JSON.parse(stdout) as { task: { status: { state: string }; artifacts: { parts: { text?: string }[] }[] } };
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0]!.parts[0]!.text).toBe(AUTH_RESUME_TEXTS.answer);
    expect(stderr).toContain(SIGN_IN);
  });

  it('--stream -o json: AUTH_REQUIRED, then WORKING, the answer and COMPLETED, one line each', async () => {
    const { code, stdout, stderr } = await runCli(['send', url, '--stream', '-o', 'json', 'hello']);
    expect(code).toBe(0);
    const states = jsonLines(stdout).flatMap((line) => {
      const update = line['statusUpdate'] as { status: { state: string } } | undefined;
      return update === undefined ? [] : [update.status.state];
    });
    expect(states).toEqual(['TASK_STATE_WORKING', 'TASK_STATE_AUTH_REQUIRED', 'TASK_STATE_WORKING', 'TASK_STATE_COMPLETED']);
    expect(stdout).toContain(AUTH_RESUME_TEXTS.answer);
    expect(stderr).toContain(SIGN_IN);
  });

  it('--stream (text): a record per event, the last one TASK_STATE_COMPLETED', async () => {
    const { code, stdout } = await runCli(['send', url, '--stream', 'hello']);
    expect(code).toBe(0);
    expect(stdout).toContain(`State: TASK_STATE_AUTH_REQUIRED\nStatus Message:\n${AUTH_RESUME_TEXTS.prompt}\n`);
    expect(stdout).toContain(AUTH_RESUME_TEXTS.answer);
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('State: TASK_STATE_COMPLETED');
  });

  it('--json is the library’s turn, event for event: the same event types in order as createA2A(...).turn(...)', async () => {
    const cli = await runCli(['send', url, '--json', 'hello']);
    const a2a = createA2A({ identitySecret: SECRET });
    try {
      const events = await firstValueFrom(a2a.turn({ agent: url, handle: 'auth', thread: 'resume', text: 'hello' }).pipe(toArray()));
      const lines = jsonLines(cli.stdout);
      expect(lines.map((line) => line['type'])).toEqual(events.map((event) => event.type));
      expect(events.map((event) => event.type)).toContain('auth-required');
      expect(lines.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: AUTH_RESUME_TEXTS.answer });
      expect(cli.code).toBe(0);
    } finally {
      await a2a.close();
    }
  });

  it('--async returns at once with the task as it stands, and the command that follows it', async () => {
    const { code, stdout, stderr } = await runCli(['send', url, '--async', 'hello']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Task ID: (\S+)\n/);
    expect(stdout).not.toContain('TASK_STATE_COMPLETED');
    expect(stderr).toMatch(/follow it with: a4h task get \S+ -a \S+ --wait/);
    expect(stderr).not.toContain('waits for sign-in');
  });
});

describe('a4h send: --timeout while the task waits for sign-in', () => {
  const wait = (args: string[]) => runCli(['send', url, '--timeout', '1.5', ...args, 'wait']);

  it('text: exit 5, A2ACLI_ERR_TIMEOUT naming the task and how to go on; the task is left waiting, not cancelled', async () => {
    const before = cancels();
    const { code, stdout, stderr } = await wait([]);
    expect(code).toBe(5);
    expect(stdout).toBe('');
    expect(stderr).toContain(SIGN_IN);
    const [, taskId] =
      /Message: --timeout \(1\.5 s\) ran out while task (\S+) waited for sign-in \(TASK_STATE_AUTH_REQUIRED\); it was not cancelled\n/.exec(
        stderr,
      ) ?? [];
    expect(taskId).toBeDefined();
    expect(stderr).toContain('Error: A2ACLI_ERR_TIMEOUT\n');
    expect(stderr).toContain(`Hint: sign in as the agent asked, then follow the task: a4h task get ${taskId} -a ${url} --wait\n`);
    expect(cancels()).toBe(before);
    const task = await runCli(['task', 'get', taskId!, '-a', url]);
    expect(task.stdout).toContain('State: TASK_STATE_AUTH_REQUIRED');
  });

  it('-o json: the error envelope is the one document', async () => {
    const { code, stdout } = await wait(['-o', 'json']);
    expect(code).toBe(5);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('A2ACLI_ERR_TIMEOUT');
    expect(error.message).toMatch(/waited for sign-in/);
    expect(error.hint).toMatch(/^sign in as the agent asked, then follow the task: a4h task get \S+ -a \S+ --wait$/);
  });

  it('--json: the library’s turn to its end (outcome auth-required), then exit 5 and the next step on stderr', async () => {
    const { code, stdout, stderr } = await wait(['--json']);
    expect(code).toBe(5);
    const lines = jsonLines(stdout);
    expect(lines.map((line) => line['type'])).toContain('auth-required');
    expect(lines.at(-1)).toMatchObject({ type: 'end', outcome: 'auth-required' });
    expect(stderr).toMatch(/error: --timeout \(1\.5 s\) ran out while task \S+ waited for sign-in/);
    expect(stderr).toMatch(/sign in as the agent asked, then follow the task: a4h task get \S+ -a \S+ --wait/);
  });
});

describe('a4h send: the wait for sign-in, otherwise ended', () => {
  it('Ctrl-C while the task waits: exit 1, no CancelTask, and the message says the task still waits', async () => {
    const before = cancels();
    const run = startCli(['send', url, 'wait']);
    await stderrShows(run, 'waiting for the agent to go on');
    run.child.kill('SIGINT');
    const { code, stderr } = await run.result;
    expect(code).toBe(1);
    expect(stderr).toMatch(/stopped waiting: task \S+ still waits for sign-in \(TASK_STATE_AUTH_REQUIRED\), not cancelled/);
    expect(stderr).not.toContain('asked to stop');
    expect(cancels()).toBe(before);
  });

  it('an agent that does not stream: the blocking send ends at AUTH_REQUIRED; no wait is claimed, the next step is named', async () => {
    const nostream = agent.url(AUTH_RESUME_MOUNTS.nostream);
    const { code, stdout, stderr } = await runCli(['send', nostream, 'hello']);
    expect(code).toBe(0);
    expect(stdout).toContain('State: TASK_STATE_AUTH_REQUIRED');
    expect(stderr).toContain(SIGN_IN);
    expect(stderr).not.toContain('waiting for the agent to go on');
    expect(stderr).toMatch(/sign in as the agent asked, then follow it with: a4h task get \S+ -a \S+ --wait/);
  });
});
