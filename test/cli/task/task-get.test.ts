import { describe, expect, it } from 'vitest';
import { INPUT_QUESTION, REPLY, startV1Agent, V1_MOUNTS, type FixtureAgent } from '../../../fixtures/index.js';
import { startCli } from '../run-cli.js';
import { field, runCli, useTaskAgent } from './task-kit.js';

// Slow tasks tick for 10 s: longer than a CLI process takes to start on a busy machine, short enough for a test.
let agent: FixtureAgent;
const start = useTaskAgent(
  () => startV1Agent({ timing: { slowTotalMs: 10_000, tickMs: 500 } }),
  V1_MOUNTS.main,
  (a) => (agent = a),
);
/** Starts a task on a mount with the raw SDK client (not waiting for it) and returns its id and contextId. */
const startTask = (text: string, mount: string = V1_MOUNTS.main, wait = false) => start(text, { mount, wait });

describe('a4h task get', () => {
  it('reads a task by id: its ids and state as Label: value lines, its artifacts as a block (never stripped)', async () => {
    const { id, contextId } = await startTask('artifacts', V1_MOUNTS.main, true);
    const { code, stdout, stderr } = await runCli(['task', 'get', id, '-a', agent.url('/')]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(field(stdout, 'Task ID')).toBe(id);
    expect(field(stdout, 'Context ID')).toBe(contextId);
    expect(field(stdout, 'State')).toBe('TASK_STATE_COMPLETED');
    expect(stdout).toMatch(new RegExp(`^Artifact: .*\\n${REPLY.artifacts}\\n\\n`, 'm'));
  });

  it('-o json: the protocol Task as one document, artifacts included', async () => {
    const { id, contextId } = await startTask('file', V1_MOUNTS.main, true);
    const { code, stdout } = await runCli(['task', 'get', id, '-a', agent.url('/'), '-o', 'json']);
    expect(code).toBe(0);
    const task = JSON.parse(stdout) as {
      id: string;
      contextId: string;
      status: { state: string };
      artifacts: { parts: { raw?: string; filename?: string }[] }[];
    };
    expect(task).toMatchObject({ id, contextId, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(task.artifacts[0]!.parts.some((part) => part.raw !== undefined && part.filename !== undefined)).toBe(true);
  });

  it("--history N: the task's messages too, as History blocks", async () => {
    const { id } = await startTask('artifacts', V1_MOUNTS.main, true);
    const { stdout } = await runCli(['task', 'get', id, '-a', agent.url('/'), '--history', '5']);
    expect(stdout).toMatch(/^History: ROLE_USER\nartifacts\n\n/m);
  });

  it('a task the agent does not know: TaskNotFoundError in the envelope, exit 1', async () => {
    const { code, stdout, stderr } = await runCli(['task', 'get', 'no-such-task', '-a', agent.url('/'), '-o', 'json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'TaskNotFoundError' } });
    expect(stderr).toContain('Error: TaskNotFoundError');
  });

  it('--help shows the defaults (poll interval 2s, timeout 10m, no history)', async () => {
    const { code, stdout } = await runCli(['task', 'get', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('default 2s');
    expect(stdout).toContain('default 10m');
    expect(stdout).toContain('default: none');
  });
});

describe('a4h task get --wait', () => {
  it('follows the task to its end on its stream, then prints the whole task (no polling while the stream runs)', async () => {
    const { id } = await startTask('slow');
    agent.received.length = 0;
    const { code, stdout, stderr } = await runCli(['task', 'get', id, '-a', agent.url('/'), '--wait']);
    expect(code).toBe(0);
    expect(field(stdout, 'State')).toBe('TASK_STATE_COMPLETED');
    expect(stderr).toContain(`waiting for task ${id}`);
    const methods = agent.received.filter((r) => r.mount === '/').map((r) => r.method);
    expect(methods).toContain('SubscribeToTask');
    expect(methods.filter((m) => m === 'GetTask')).toHaveLength(1);
  });

  it('polls when the stream is refused (the stream-preferred wait falls back), and drives the task to its end', async () => {
    const { id } = await startTask('slow', V1_MOUNTS.noresub);
    agent.received.length = 0;
    const { code, stdout } = await runCli(['task', 'get', id, '-a', agent.url(V1_MOUNTS.noresub), '--wait', '--poll-interval', '200ms']);
    expect(code).toBe(0);
    expect(field(stdout, 'State')).toBe('TASK_STATE_COMPLETED');
    const methods = agent.received.filter((r) => r.mount === V1_MOUNTS.noresub).map((r) => r.method);
    expect(methods.indexOf('SubscribeToTask')).toBeLessThan(methods.indexOf('GetTask'));
    // At most 10 s of work polled from 200 ms growing to 800 ms: a handful of polls, no busy loop.
    expect(methods.filter((m) => m === 'GetTask').length).toBeGreaterThan(1);
    expect(methods.filter((m) => m === 'GetTask').length).toBeLessThan(25);
  });

  it('polls an agent without streaming', async () => {
    const { id } = await startTask('slow', V1_MOUNTS.nostream);
    const { code, stdout } = await runCli(['task', 'get', id, '-a', agent.url(V1_MOUNTS.nostream), '--wait', '--poll-interval', '100ms']);
    expect(code).toBe(0);
    expect(field(stdout, 'State')).toBe('TASK_STATE_COMPLETED');
  });

  it('stops at once at INPUT_REQUIRED: exit 0, the state and the question, a warning on stderr', async () => {
    const { id } = await startTask('input', V1_MOUNTS.nostream);
    const started = Date.now();
    const { code, stdout, stderr } = await runCli([
      'task',
      'get',
      id,
      '-a',
      agent.url(V1_MOUNTS.nostream),
      '--wait',
      '--poll-interval',
      '100ms',
    ]);
    expect(code).toBe(0);
    expect(Date.now() - started).toBeLessThan(30_000); // not the 10-minute default wait
    expect(field(stdout, 'State')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(stdout).toContain(INPUT_QUESTION);
    expect(stderr).toContain('TASK_STATE_INPUT_REQUIRED');
  });

  it('--timeout: A2ACLI_ERR_TIMEOUT with exit 5, the hint naming how to read the task later', async () => {
    const { id } = await startTask('slow');
    const { code, stdout } = await runCli(['task', 'get', id, '-a', agent.url('/'), '--wait', '--timeout', '300ms', '-o', 'json']);
    expect(code).toBe(5);
    const { error } = JSON.parse(stdout) as { error: { code: string; hint: string } };
    expect(error.code).toBe('A2ACLI_ERR_TIMEOUT');
    expect(error.hint).toContain(`a4h task get ${id}`);
  });

  it('Ctrl-C while waiting: the task id is already on stderr, the process ends', async () => {
    const { id } = await startTask('slow');
    agent.received.length = 0;
    const run = startCli(['task', 'get', id, '-a', agent.url('/'), '--wait']);
    // Once it follows the task's stream, it has said which task it waits for.
    while (!agent.received.some((r) => r.method === 'SubscribeToTask')) await new Promise((resolve) => setTimeout(resolve, 50));
    run.child.kill('SIGINT');
    const { code, stderr } = await run.result;
    expect(code).not.toBe(0);
    expect(stderr).toContain(`a4h task get ${id} -a`);
  });

  it('a bad --poll-interval is a usage error (exit 2)', async () => {
    const { code, stderr } = await runCli(['task', 'get', 'x', '-a', agent.url('/'), '--wait', '--poll-interval', 'soon']);
    expect(code).toBe(2);
    expect(stderr).toContain('--poll-interval');
  });
});
