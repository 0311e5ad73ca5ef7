/**
 * What a cancel (Ctrl-C, `--timeout`) says it left at the agent, in every output mode of `send` and in
 * `chat`: before the agent named a task, nothing could be cancelled (no CancelTask goes), the agent may
 * still act on the message, and `a4h resume --message` finds out (with a thread); after it named one,
 * CancelTask was sent (and the agent got it). A raw agent holds its stream silent, or names task
 * T-named and holds it open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../eventually.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent, rawCard } from '../../sdk/raw-agent.js';
import { jsonLines, runCli, startCli } from '../run-cli.js';

let agent: RawAgent;
const methods: string[] = [];
/** How long ListTasks takes: a send on a thread is still listing when a short --timeout runs out. */
let listDelayMs = 0;
const count = (method: string): number => methods.filter((m) => m === method).length;
beforeAll(async () => {
  agent = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, rawCard(base, 'holding', 'holds its streams'));
    }
    methods.push(rpc.method);
    if (rpc.method === 'CancelTask' || rpc.method === 'GetTask') {
      const state = rpc.method === 'CancelTask' ? 'TASK_STATE_CANCELED' : 'TASK_STATE_WORKING';
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { id: 'T-named', contextId: 'C', status: { state } } });
    }
    // A thread's send lists the thread's tasks first (a task left waiting): none.
    if (rpc.method === 'ListTasks') {
      const empty = { jsonrpc: '2.0', id: rpc.id, result: { tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 } };
      return void setTimeout(() => sendJson(res, empty), listDelayMs);
    }
    const text = (rpc.params as { message?: { parts?: { text?: string }[] } }).message?.parts?.[0]?.text ?? '';
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    if (text.startsWith('named'))
      res.write(sseFrame(rpc.id, { task: { id: 'T-named', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
    // Silent for a while (or, named, working on): the stream ends by itself after 1.5 s, the task never settled.
    setTimeout(() => res.end(), 1_500);
  });
});
afterAll(() => agent?.close());

/** Starts `a4h …`, and sends it SIGINT once the agent has its message (and, when given, stdout shows `shown`). */
async function interrupted(args: string[], shown?: RegExp, input?: string) {
  const streams = count('SendStreamingMessage');
  const run = startCli(args);
  if (input !== undefined) run.child.stdin!.write(input);
  await eventually(() => count('SendStreamingMessage') > streams, 10_000);
  if (shown !== undefined) await run.waitFor(shown);
  await new Promise((resolve) => setTimeout(resolve, 150));
  run.child.kill('SIGINT');
  if (input !== undefined) run.child.stdin!.end();
  return run.result;
}

describe('a cancel before the agent named a task', () => {
  it('--timeout: no CancelTask, the message it may still act on, and the resume command that finds it (text)', async () => {
    const cancels = count('CancelTask');
    const { code, stderr } = await runCli(['send', agent.url, '--thread', 't-1', '--message-id', 'm-timeout', '--timeout', '1', 'silent']);
    expect(code).toBe(5);
    expect(stderr).toMatch(/^Error: A2ACLI_ERR_TIMEOUT$/m);
    const hint = /^Hint: (.*)$/m.exec(stderr)?.[1] ?? '';
    expect(hint).toContain('cancelled before the agent named a task: there was nothing to cancel');
    expect(hint).toContain('the agent may still act on message m-timeout');
    expect(hint).toContain('on an agent that lists its tasks, the task that carries the message is looked up and cancelled');
    expect(hint).toMatch(new RegExp(`find out with: a4h resume ${agent.url} --thread t-1 --message m-timeout --sent-at \\d{13}`));
    expect(hint).not.toContain('goes on');
    expect(count('CancelTask')).toBe(cancels);
  });

  it('Ctrl-C, -o json: the envelope says nothing could be cancelled; without --thread a4h says it cannot look for it', async () => {
    const cancels = count('CancelTask');
    const { code, stdout, stderr } = await interrupted(['send', agent.url, '-o', 'json', '--message-id', 'm-sigint', 'silent']);
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string; hint: string } };
    expect(error.code).toBe('A4H_ERR_CANCELLED');
    expect(error.message).toContain('cancelled before the agent named a task: there was nothing to cancel');
    expect(error.message).toContain('the agent may still act on message m-sigint');
    expect(error.hint).toContain('a4h cannot look for it: the message went without --thread');
    expect(error.message).not.toContain('looked up');
    expect(stderr).not.toContain('asked to stop');
    expect(count('CancelTask')).toBe(cancels);
  });

  it('Ctrl-C, --json: the error line says so too', async () => {
    const { code, stdout } = await interrupted(['send', agent.url, '--json', '--thread', 't-2', '--message-id', 'm-json', 'silent']);
    expect(code).toBe(1);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      type: 'error',
      kind: 'aborted',
      message: expect.stringContaining('nothing to cancel'),
      hint: expect.stringContaining('--thread t-2 --message m-json'),
    });
  });

  it('chat: Ctrl-C during the turn says the same, with the chat thread’s resume command', async () => {
    const { stderr } = await interrupted(['chat', agent.url, '--thread', 'c-1'], undefined, 'silent\n');
    expect(stderr).toContain('turn cancelled before the agent named a task: there was nothing to cancel');
    expect(stderr).toMatch(new RegExp(`find out with: a4h resume ${agent.url} --thread c-1 --message \\S+ --sent-at \\d{13}`));
    expect(stderr).not.toContain('asked to stop');
  });

  it('--timeout before the message even went (the thread still being listed): nothing reached the agent', async () => {
    listDelayMs = 1_000;
    const streams = count('SendStreamingMessage');
    const { code, stderr } = await runCli(['send', agent.url, '--thread', 'slow-list', '--timeout', '0.3', 'silent']).finally(
      () => (listDelayMs = 0),
    );
    expect(count('SendStreamingMessage')).toBe(streams);
    expect(code).toBe(5);
    expect(/^Hint: (.*)$/m.exec(stderr)?.[1]).toContain('cancelled before the message was sent: nothing reached the agent');
  });
});

describe('a cancel after the agent named its task', () => {
  it('Ctrl-C, --json: CancelTask was sent for it (the agent got it)', async () => {
    const cancels = count('CancelTask');
    const { code, stdout } = await interrupted(['send', agent.url, '--json', 'named'], /"type":"task"/);
    expect(code).toBe(1);
    expect(jsonLines(stdout).at(-1)).toMatchObject({
      kind: 'aborted',
      message: 'cancelled: CancelTask was sent for task T-named',
      hint: `see what the agent made of it: a4h task get T-named -a ${agent.url}`,
    });
    expect(count('CancelTask')).toBe(cancels + 1);
  });

  it('--timeout: the hint says CancelTask was sent, not that the task goes on', async () => {
    const cancels = count('CancelTask');
    const { code, stderr } = await runCli(['send', agent.url, '--timeout', '0.5', 'named']);
    expect(code).toBe(5);
    const hint = /^Hint: (.*)$/m.exec(stderr)?.[1] ?? '';
    expect(hint).toContain('CancelTask was sent for task T-named');
    expect(hint).not.toContain('goes on');
    expect(count('CancelTask')).toBe(cancels + 1);
  });
});
