import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookedReply, FAIL_MESSAGE, INPUT_QUESTION, REPLY, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { eventually } from '../../eventually.js';
import { runCli, startCli } from '../run-cli.js';

let agent: FixtureAgent;
beforeAll(async () => {
  agent = await startV1Agent();
});
afterAll(() => agent.close());

describe('a4h chat with piped lines', () => {
  it('answers each line in order and leaves at the end of input', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.url('/'), '--thread', 'piped-1'], { input: 'artifacts\nmessage\n' });
    expect(code).toBe(0);
    expect(stdout).toBe(`${REPLY.artifacts}\n${REPLY.message}\n`);
    expect(stderr).toMatch(/chatting with v1-main \(A2A 1\.0, JSONRPC, streaming\) on thread "piped-1"/);
  });

  it('says which default thread it uses', async () => {
    const { stderr } = await runCli(['chat', agent.url('/')], { input: 'message\n' });
    expect(stderr).toMatch(/on thread "terminal" \(--thread KEY for another\)/);
  });

  it('continues an input-required task with the next line', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.url('/'), '--thread', 'piped-input'], { input: 'input\nParis\n' });
    expect(code).toBe(0);
    expect(stdout).toBe(`${INPUT_QUESTION}\n${bookedReply('Paris')}\n`);
    expect(stderr).toContain('your next line answers it');
  });

  it('a failed turn is a notice, the chat goes on, and it leaves with exit 1', async () => {
    const { code, stdout, stderr } = await runCli(['chat', agent.url('/'), '--thread', 'piped-fail'], { input: 'fail\nmessage\n' });
    expect(stdout).toBe(`${FAIL_MESSAGE}\n${REPLY.message}\n`);
    expect(stderr).toContain('the task ended failed');
    expect(code).toBe(1);
  });

  it('/quit first: nothing is sent, even with lines after it', async () => {
    const streams = () => agent.received.filter((r) => r.method === 'SendStreamingMessage').length;
    const before = streams();
    const { code, stdout } = await runCli(['chat', agent.url('/'), '--thread', 'piped-quit-first'], { input: '/quit\nhello\nworld\n' });
    expect(code).toBe(0);
    expect(stdout).toBe('');
    expect(streams()).toBe(before);
  });

  it('/quit leaves before the rest of the input', async () => {
    const { code, stdout } = await runCli(['chat', agent.url('/'), '--thread', 'piped-quit'], { input: 'message\n/quit\nartifacts\n' });
    expect(code).toBe(0);
    expect(stdout).toBe(`${REPLY.message}\n`);
  });

  it('Ctrl-C during a turn cancels it (the agent receives CancelTask) and the chat goes on', async () => {
    const cancels = () => agent.received.filter((r) => r.method === 'CancelTask').length;
    const before = cancels();
    const streams = () => agent.received.filter((r) => r.method === 'SendStreamingMessage').length;
    const sent = streams();
    const run = startCli(['chat', agent.url('/'), '--thread', 'piped-cancel']);
    run.child.stdin!.write('slow\n');
    await eventually(() => streams() > sent, 5_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    run.child.kill('SIGINT');
    await eventually(() => cancels() > before, 5_000);
    run.child.stdin!.end('message\n');
    const { code, stdout, stderr } = await run.result;
    expect(stderr).toContain('turn cancelled');
    expect(cancels()).toBe(before + 1);
    expect(stdout).toBe(`${REPLY.message}\n`);
    expect(code).toBe(0);
  });

  it('an unreachable agent is one clear error and exit 3 (unreachable, as the specification says)', async () => {
    const { code, stderr } = await runCli(['chat', 'http://127.0.0.1:9/'], { input: 'hi\n' });
    expect(code).toBe(3);
    expect(stderr).toMatch(/error: could not fetch the agent card/);
  });
});
