/**
 * `a4h send` and `a4h chat` against `@reactive-agents/a2a` 0.9.0 (fixtures/agent-reactive.ts): its
 * reply after its final status, `"id": null` on its GetTask answer, `"id": 1` on every stream frame,
 * a new contextId per message, a failure's status message as a plain string.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REACTIVE_FAILURE, reactiveReply, startReactiveAgent, type ReactiveAgent } from '../../../fixtures/agent-reactive.js';
import { runCli } from '../run-cli.js';

let agent: ReactiveAgent;
beforeAll(async () => {
  agent = await startReactiveAgent();
});
afterAll(() => agent.close());

const send = (...args: string[]) => runCli(['send', agent.cardUrl, '--a2a-version', '0.3', ...args]);

describe('a4h send to Reactive Agents 0.9.0', () => {
  it('text: the task completed, its artifact and the reply that came after the final status', async () => {
    const { code, stdout, stderr } = await send('hello');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Task ID: \S+\nContext ID: \S+\nState: TASK_STATE_COMPLETED\nArtifact: response\n/);
    expect(stdout).toContain(`${reactiveReply('hello')}\n`);
    expect(stderr).toBe('');
  });

  it('-o json: the task as the agent has it (its GetTask answered "id": null), the reply in its artifact', async () => {
    const from = agent.received.length;
    const { code, stdout } = await send('-o', 'json', 'hello');
    expect(code).toBe(0);
    const { task } = JSON.parse(stdout) as { task: { status: { state: string }; artifacts: { parts: unknown[] }[] } };
    expect(task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts[0]!.parts).toEqual([{ text: reactiveReply('hello') }]);
    expect(agent.received.slice(from).map((r) => r.method)).toEqual(['GET /.well-known/agent.json', 'message/stream', 'tasks/get']);
  });

  it('-o json --stream: both events, the artifact after the final status', async () => {
    const { code, stdout } = await send('-o', 'json', '--stream', 'hello');
    expect(code).toBe(0);
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events).toMatchObject([
      { statusUpdate: { status: { state: 'TASK_STATE_COMPLETED' } } },
      { artifactUpdate: { artifact: { parts: [{ text: reactiveReply('hello') }] } } },
    ]);
  });

  it("a failure: the agent's own words (a string status message), on stdout and in the warning", async () => {
    const { code, stdout, stderr } = await send('fail now');
    expect(code).toBe(0);
    expect(stdout).toMatch(/State: TASK_STATE_FAILED\nStatus Message:\n/);
    expect(stdout).toContain(REACTIVE_FAILURE);
    expect(stderr).toContain(`the task ended TASK_STATE_FAILED: ${REACTIVE_FAILURE}`);
  });
});

describe('a4h chat with Reactive Agents 0.9.0', () => {
  it('two turns (each stream numbered id 1, each message given a new contextId): both replies, then the failure in its words', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.cardUrl, '--thread', 'reactive-2'], { input: 'one\ntwo\nfail\n' });
    expect(stdout).toBe(`${reactiveReply('one')}\n${reactiveReply('two')}\n${REACTIVE_FAILURE}\n`);
    expect(stderr).not.toContain('another JSON-RPC call');
    expect(stderr).toContain('the task ended failed');
    expect(code).toBe(1);
  });
});
