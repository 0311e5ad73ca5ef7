/** What `a4h chat` shows of a thread's past when it starts (`--history N`): dimmed, on stderr. */
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terminalIo } from '../terminal-io.js';
import { bookedReply, echoReply, INPUT_QUESTION, REPLY, startV03Agent, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { HeldHistory } from '../../../src/cli/commands/chat/history.js';
import { createA2A } from '../../../src/client/create-a2a.js';
import type { HistoryExchange } from '../../../src/port/history.js';
import { runCli, SECRET } from '../run-cli.js';

let v1: FixtureAgent;
let v03: FixtureAgent;
beforeAll(async () => {
  [v1, v03] = await Promise.all([startV1Agent(), startV03Agent()]);
  // Said before, by another process, on the commands' default handle: two exchanges and a question left waiting.
  const client = createA2A({ identitySecret: SECRET });
  const said = async (agent: string, thread: string, texts: string[]) => {
    for (const text of texts) await lastValueFrom(client.turn({ agent, handle: 'default', thread, text }));
  };
  await said(v1.url('/'), 'chat-past', ['hello', 'artifacts', 'input']);
  await said(v03.url('/'), 'chat-past-v03', ['hello']);
  await client.close();
});
afterAll(async () => {
  await Promise.all([v1.close(), v03.close()]);
});

/** The ListTasks calls since `from` that read a thread's history (with artifacts), as `client.history` asks. */
const historyListings = (from: number) =>
  v1.received.slice(from).filter((r) => r.method === 'ListTasks' && (r.params as { includeArtifacts?: boolean }).includeArtifacts);

describe('a4h chat shows the last exchanges when it starts', () => {
  it('oldest first, on stderr; the question left waiting once, under what it asked, then answered by the next line', async () => {
    const from = v1.received.length;
    const { code, stdout, stderr } = await runCli(['chat', v1.url('/'), '--thread', 'chat-past'], { input: 'Paris\n' });
    expect(code).toBe(0);
    expect(stdout).toBe(`${INPUT_QUESTION}\n${bookedReply('Paris')}\n`);
    // The two exchanges before, then what the question left waiting asked (the resumed turn's request).
    const past = ['you: hello', echoReply('hello'), '[completed]', 'you: artifacts', REPLY.artifacts, '[completed]'];
    expect(stderr).toContain(`${[...past, 'you: input'].join('\n')}\n`);
    // The question is the resumed turn's: on stdout, never in the history too.
    expect(stderr).not.toContain(INPUT_QUESTION);
    expect(stderr).not.toContain('[input-required]');
    expect(historyListings(from)).toHaveLength(1);
  });

  it('--history 1: the newest exchange only; --history 0: none, and no ListTasks for them', async () => {
    const one = await runCli(['chat', v1.url('/'), '--thread', 'chat-past', '--history', '1'], { input: '' });
    expect(one.code).toBe(0);
    expect(one.stderr).toContain(`you: input\nyou: Paris\n${bookedReply('Paris')}\n[completed]\n`);
    expect(one.stderr).not.toContain('you: hello');
    const from = v1.received.length;
    const none = await runCli(['chat', v1.url('/'), '--thread', 'chat-past', '--history', '0'], { input: 'message\n' });
    expect([none.code, none.stdout]).toEqual([0, `${REPLY.message}\n`]);
    expect(none.stderr).not.toContain('you:');
    expect(historyListings(from)).toEqual([]);
    // The resume at start still looks for a reply in flight.
    expect(v1.received.slice(from).some((r) => r.method === 'ListTasks')).toBe(true);
  });

  it('a v0.3 agent (no ListTasks): nothing of the past, no error, the chat goes on', async () => {
    const { code, stdout, stderr } = await runCli(['chat', v03.url('/'), '--thread', 'chat-past-v03'], { input: 'message\n' });
    expect([code, stdout]).toEqual([0, `${REPLY.message}\n`]);
    expect(stderr).not.toMatch(/you:|error/);
  });

  it.each(['-1', '101', 'five', ''])('--history=%s is bad usage (2)', async (value) => {
    const { code, stderr } = await runCli(['chat', v1.url('/'), `--history=${value}`], { input: '' });
    expect(code).toBe(2);
    expect(stderr).toContain('--history must be a whole number from 0 to 100');
  });
});

describe('dimmed on a terminal', () => {
  const terminal = terminalIo;
  const exchange = (taskId: string, text: string): HistoryExchange => ({
    taskId,
    user: [{ text }],
    reply: echoReply(text),
    state: 'completed',
    outcome: 'completed',
  });

  it("the chat's history, without the resumed task's exchange", () => {
    const { io, written } = terminal();
    const past = new HeldHistory(io, [exchange('t-1', 'hi'), exchange('t-2', 'again')]);
    past.before({ type: 'start' });
    expect(written()).toBe('');
    past.before({ type: 'task', taskId: 't-2' });
    past.show();
    const dim = (line: string) => `\x1b[2m${line}\x1b[22m\n`;
    expect(written()).toBe([dim('you: hi'), dim(echoReply('hi')), dim('[completed]')].join(''));
  });
});
