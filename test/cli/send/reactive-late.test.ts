/**
 * `a4h send` and `a4h chat` against `@reactive-agents/a2a` 0.9.0's wire with its artifact later than
 * the 250 ms read after its final status and a failing `tasks/get` (the fixture's variant): the reply
 * could not be read, and the command says so on stderr. Exit status 0 (A2A CLI §9.6: the turn was
 * conducted and reported), never a plain success.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReactiveAgent, type ReactiveAgent } from '../../../fixtures/agent-reactive.js';
import { runCli } from '../run-cli.js';

let agent: ReactiveAgent;
beforeAll(async () => {
  agent = await startReactiveAgent({ lateArtifactMs: 800, getTaskFails: true });
});
afterAll(() => agent.close());

const send = (...args: string[]) => runCli(['send', agent.cardUrl, '--a2a-version', '0.3', ...args]);
const WARNING = 'the task completed, but its reply could not be read';

describe('a4h send, the reply later than it was read and the task not readable back', () => {
  it('text: the completed task on stdout, no reply; the warning on stderr naming the failed read; exit 0', async () => {
    const { code, stdout, stderr } = await send('hello');
    expect(code).toBe(0);
    expect(stdout).toMatch(/State: TASK_STATE_COMPLETED\n/);
    expect(stdout).not.toContain('reactive heard');
    expect(stderr).toContain(WARNING);
    expect(stderr).toContain('Internal error');
  });

  it('-o json: the one document as read (the task completed, no artifact); the warning on stderr', async () => {
    const { code, stdout, stderr } = await send('-o', 'json', 'hello');
    expect(code).toBe(0);
    const { task } = JSON.parse(stdout) as { task: { status: { state: string }; artifacts?: unknown[] } };
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts ?? []).toEqual([]);
    expect(stderr).toContain(WARNING);
  });

  it('--json: the end line carries replyMissing, its reason and cause; the warning on stderr', async () => {
    const { code, stdout, stderr } = await send('--json', 'hello');
    expect(code).toBe(0);
    const end = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(end).toMatchObject({
      type: 'end',
      outcome: 'completed',
      text: '',
      replyMissing: { reason: 'unread', cause: { kind: expect.any(String), message: expect.stringContaining('Internal error') } },
    });
    expect(stderr).toContain(WARNING);
  });
});

describe('a4h chat, the same', () => {
  it('the warning on stderr after the turn', async () => {
    const { stdout, stderr } = await runCli(['chat', agent.cardUrl, '--thread', 'reactive-late'], { input: 'hello\n' });
    expect(stdout).not.toContain('reactive heard');
    expect(stderr).toContain(WARNING);
  });
});
