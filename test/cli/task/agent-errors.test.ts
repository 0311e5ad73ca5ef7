/**
 * The agent's own error stays in every error a4h prints: its code (-32001, -32002, -32603), A2A's name
 * for it and its text, in `task cancel` (text and `-o json`), in a send's error (`--json`'s error line,
 * `-o json`'s envelope), and the reason of a task the agent failed in the outcome's warning.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startV1Agent } from '../../../fixtures/agent-v1.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { FAIL_MESSAGE } from '../../../fixtures/texts.js';
import { sendJson, startRawAgent, type RawAgent, rawCard } from '../../sdk/raw-agent.js';
import { jsonLines, runCli } from '../run-cli.js';

const NOWHERE = 'Task gone is nowhere: it was swept at midnight';
const BUSY = 'Task busy is writing to disk and cannot stop now';
const CRASHED = 'the model crashed: out of memory';

let raw: RawAgent;
let v1: FixtureAgent;
beforeAll(async () => {
  v1 = await startV1Agent();
  raw = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, rawCard(base, 'refusing', 'refuses in its own words'));
    }
    const id = (rpc.params as { id?: string } | undefined)?.id;
    const error = (code: number, message: string) => sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code, message } });
    if (rpc.method === 'CancelTask') return id === 'busy' ? error(-32002, BUSY) : error(-32001, NOWHERE);
    if (rpc.method === 'GetTask') {
      if (id !== 'busy') return error(-32001, NOWHERE);
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { id: 'busy', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } });
    }
    return error(-32603, CRASHED);
  });
});
afterAll(async () => {
  await raw?.close();
  await v1?.close();
});

describe('task cancel keeps the agent’s refusal', () => {
  it('-32001: TaskNotFoundError, its code and its text (text)', async () => {
    const { code, stderr } = await runCli(['task', 'cancel', 'gone', '-a', raw.url]);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^Error: TaskNotFoundError\nMessage: .*\nA2A Code: -32001\n/m);
    expect(stderr).toContain(NOWHERE);
  });

  it('-32002 on a working task: TaskNotCancelableError, its code and its text (-o json)', async () => {
    const { code, stdout } = await runCli(['task', 'cancel', 'busy', '-a', raw.url, '-o', 'json']);
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; a2aCode: number; message: string } };
    expect(error).toMatchObject({ code: 'TaskNotCancelableError', a2aCode: -32002, message: expect.stringContaining(BUSY) });
  });
});

describe('a send the agent refuses', () => {
  it('--json: the error line carries the agent’s code, A2A’s name for it and its text', async () => {
    const { code, stdout } = await runCli(['send', raw.url, '--json', 'hello']);
    expect(code).toBe(1);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      type: 'error',
      code: -32603,
      name: 'InternalError',
      message: expect.stringContaining(CRASHED),
    });
  });

  it('-o json: the envelope too; text: Error, A2A Code and Message', async () => {
    const json = await runCli(['send', raw.url, '-o', 'json', 'hello']);
    expect(JSON.parse(json.stdout)).toMatchObject({
      error: { code: 'InternalError', a2aCode: -32603, message: expect.stringContaining(CRASHED) },
    });
    const text = await runCli(['send', raw.url, 'hello']);
    expect(text.stderr).toMatch(/^Error: InternalError\nMessage: .*the model crashed: out of memory\nA2A Code: -32603\n/m);
  });
});

describe('a task the agent failed', () => {
  for (const mode of [[], ['-o', 'json'], ['--stream'], ['-o', 'json', '--stream']]) {
    it(`send ${mode.join(' ') || '(text)'}: the warning names the agent’s reason`, async () => {
      const { code, stderr } = await runCli(['send', v1.url('/'), ...mode, 'fail now']);
      expect(code).toBe(0);
      expect(stderr).toContain(`the task ended TASK_STATE_FAILED: ${FAIL_MESSAGE}`);
    });
  }
});
