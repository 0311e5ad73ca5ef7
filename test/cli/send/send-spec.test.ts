/**
 * `a4h send` as the A2A CLI specification asks (its §6, §8.2, §9): the text floor, `-o json`, `--stream`,
 * `--async`, ordered parts, continuing by id, the outcome kept out of the exit status. Against the v1.0
 * fixture agent, which records what it receives.
 */
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FAIL_MESSAGE, INPUT_QUESTION, REPLY, bookedReply, startV1Agent, type FixtureAgent } from '../../../fixtures/index.js';
import { runCli } from '../run-cli.js';
import { useAgent } from '../../agent-rig.js';

let v1: FixtureAgent;
let dir: string;
useAgent(startV1Agent, (a) => (v1 = a));
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'a4h-send-spec-'));
});

type Params = { message: { contextId?: string; taskId?: string; parts: Record<string, unknown>[] }; tenant?: string };
/** The params of the messages the agent received since `from`. */
const sent = (from: number): Params[] =>
  v1.received.slice(from).flatMap((r) => (r.method === 'SendMessage' || r.method === 'SendStreamingMessage' ? [r.params as Params] : []));
const field = (stdout: string, label: string): string | undefined => new RegExp(`^${label}: (.*)$`, 'm').exec(stdout)?.[1];
const lines = (stdout: string) => stdout.trim().split('\n');

describe('a4h send: output (§9)', () => {
  it('text, the default: Label: value fields, then the artifact as a block closed by a blank line; no control sequence', async () => {
    const { code, stdout, stderr } = await runCli(['send', v1.url('/'), '--text', 'artifacts']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^Task ID: \S+\nContext ID: \S+\nState: TASK_STATE_COMPLETED\nArtifact: answer\n/);
    expect(stdout.endsWith(`Artifact: answer\n${REPLY.artifacts}\n\n`)).toBe(true);
    expect(stdout).not.toMatch(/\u001b/);
    expect(stderr).toBe('');
  });

  it('-o json: exactly one document, the SendMessageResponse with the terminal task and its artifacts', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', 'artifacts']);
    expect(code).toBe(0);
    const { task } = JSON.parse(stdout) as { task: Record<string, any> };
    expect(task).toMatchObject({ id: expect.any(String), contextId: expect.any(String), status: { state: 'TASK_STATE_COMPLETED' } });
    expect(task.artifacts[0].parts).toEqual([{ text: REPLY.artifacts }]);
  });

  it('a Message-only answer: {"message"}, and with --stream its single line; exit 0 (§8.2)', async () => {
    const one = await runCli(['send', v1.url('/'), '-o', 'json', 'message']);
    expect(JSON.parse(one.stdout)).toMatchObject({ message: { role: 'ROLE_AGENT', parts: [{ text: REPLY.message }] } });
    const streamed = await runCli(['send', v1.url('/'), '-o', 'json', '--stream', 'message']);
    expect(lines(streamed.stdout)).toHaveLength(1);
    expect(JSON.parse(streamed.stdout)).toMatchObject({ message: { parts: [{ text: REPLY.message }] } });
    expect([one.code, streamed.code]).toEqual([0, 0]);
  }, 60_000);

  it('-o json --stream: JSON Lines as the events come, the Task first and the terminal status update last', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', '--stream', 'artifacts']);
    expect(code).toBe(0);
    const events = lines(stdout).map((line) => JSON.parse(line) as Record<string, any>);
    expect(events.length).toBeGreaterThan(3);
    expect(events[0]).toHaveProperty('task');
    expect(events.filter((event) => 'artifactUpdate' in event).length).toBeGreaterThan(1);
    expect(events.at(-1)).toMatchObject({ statusUpdate: { taskId: events[0]!.task.id, status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('--stream to an agent whose card does not stream: no stream asked for, JSON Lines all the same, said on stderr (§8.2, §11.3)', async () => {
    const from = v1.received.length;
    const { code, stdout, stderr } = await runCli(['send', v1.url('/nostream/'), '-o', 'json', '--stream', 'artifacts']);
    expect(code).toBe(0);
    expect(stderr).toContain('the agent does not stream');
    expect(v1.received.slice(from).map((r) => r.method)).not.toContain('SendStreamingMessage');
    expect(JSON.parse(lines(stdout).at(-1)!)).toMatchObject({ task: { status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('--stream, text: a record per event, the last restating the task ids and state', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '--stream', 'status']);
    expect(code).toBe(0);
    const records = stdout.trim().split('\n\n');
    expect(records.length).toBeGreaterThan(2);
    expect(records.at(-1)).toMatch(/^Task ID: \S+\nContext ID: \S+\nState: TASK_STATE_COMPLETED$/);
  });

  it('an error that ends a -o json --stream run is its last line, the envelope; a timeout exits 5 and cancels the task', async () => {
    const before = v1.received.filter((r) => r.method === 'CancelTask').length;
    const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', '--stream', '--timeout', '1500ms', 'slow']);
    expect(code).toBe(5);
    const last = JSON.parse(lines(stdout).at(-1)!) as Record<string, any>;
    expect(last).toEqual({ error: { code: 'A2ACLI_ERR_TIMEOUT', message: expect.any(String), hint: expect.any(String), a2aCode: null } });
    expect(lines(stdout).length).toBeGreaterThan(1);
    expect(v1.received.filter((r) => r.method === 'CancelTask').length).toBe(before + 1);
  });

  it('--async: the task at once, as it stands, with its ids; 0; stderr says how to follow it (§8.2, §9.5)', async () => {
    const { code, stdout, stderr } = await runCli(['send', v1.url('/'), '--async', '-o', 'json', 'slow']);
    expect(code).toBe(0);
    const { task } = JSON.parse(stdout) as { task: { id: string; contextId: string; status: { state: string } } };
    expect(task.contextId).toEqual(expect.any(String));
    expect(task.status.state).toMatch(/SUBMITTED|WORKING/);
    expect(stderr).toContain(`a4h task get ${task.id}`);
  });
});

describe('a4h send: the message (§8.2)', () => {
  it('--text, --data, --file and --text again: parts in that order; --media-type sets the part before it', async () => {
    const file = join(dir, 'note.txt');
    await writeFile(file, 'hello file');
    const from = v1.received.length;
    const args = ['send', v1.url('/'), '--text', 'first', '--data', '-', '--media-type', 'text/plain', '--file', file, '--text', 'last'];
    const { code } = await runCli(args, { input: '{"n":1}' });
    expect(code).toBe(0);
    expect(sent(from)[0]!.message.parts).toEqual([
      { text: 'first', mediaType: 'text/plain' },
      { data: { n: 1 }, mediaType: 'text/plain' },
      { raw: Buffer.from('hello file').toString('base64'), filename: 'note.txt', mediaType: 'text/plain' },
      { text: 'last', mediaType: 'text/plain' },
    ]);
  });

  it('--media-type with no part flag before it: bad usage, 2, the envelope under -o json', async () => {
    const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', '--media-type', 'text/plain', '--text', 'hi']);
    expect(code).toBe(2);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_USAGE', hint: 'a4h send --help' } });
  });
});

describe('a4h send: continuing an interaction (§6)', () => {
  it('no flag: no contextId sent (none invented); --context-id: the message goes in that interaction', async () => {
    const from = v1.received.length;
    const first = await runCli(['send', v1.url('/'), 'artifacts']);
    const contextId = field(first.stdout, 'Context ID')!;
    const second = await runCli(['send', v1.url('/'), '--context-id', contextId, 'artifacts']);
    const [a, b] = sent(from);
    expect(a!.message.contextId ?? '').toBe('');
    expect(b!.message.contextId).toBe(contextId);
    expect(field(second.stdout, 'Context ID')).toBe(contextId);
  }, 60_000);

  it('stateless: two runs without flags are two interactions, and nothing is written to the home directory', async () => {
    const home = await mkdtemp(join(tmpdir(), 'a4h-home-'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, '.config') };
    const one = await runCli(['send', v1.url('/'), 'artifacts'], { env });
    const two = await runCli(['send', v1.url('/'), 'artifacts'], { env });
    expect(field(one.stdout, 'Context ID')).not.toBe(field(two.stdout, 'Context ID'));
    expect(await readdir(home)).toEqual([]);
  }, 60_000);

  it('input-required: exit 0, the ids and the state on stdout, stderr the command that answers it; that command finishes the task', async () => {
    const asked = await runCli(['send', v1.url('/'), 'input']);
    expect(asked.code).toBe(0);
    expect(field(asked.stdout, 'State')).toBe('TASK_STATE_INPUT_REQUIRED');
    expect(asked.stdout).toContain(`Status Message:\n${INPUT_QUESTION}\n\n`);
    const taskId = field(asked.stdout, 'Task ID')!;
    const command = new RegExp(`answer it with: a4h send (\\S+) --task-id ${taskId} --text '<your answer>'`).exec(asked.stderr);
    expect(command?.[1]).toBe(v1.url('/'));
    const answered = await runCli(['send', v1.url('/'), '--task-id', taskId, '--text', 'Paris']);
    expect(answered.code).toBe(0);
    expect(field(answered.stdout, 'Task ID')).toBe(taskId);
    expect(field(answered.stdout, 'State')).toBe('TASK_STATE_COMPLETED');
    expect(answered.stdout).toContain(bookedReply('Paris'));
  }, 60_000);

  it('--task-id the agent does not know: its TaskNotFoundError, exit 1, a hint at --debug, and no message sent', async () => {
    const from = v1.received.length;
    const { code, stdout } = await runCli(['send', v1.url('/'), '-o', 'json', '--task-id', 'no-such-task', 'hello']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'TaskNotFoundError', hint: expect.stringContaining('--debug') } });
    expect(sent(from)).toEqual([]);
  });

  it('--task-id with a --context-id of another interaction: bad usage, exit 2, and no message sent', async () => {
    const asked = await runCli(['send', v1.url('/'), 'input']);
    const taskId = field(asked.stdout, 'Task ID')!;
    const from = v1.received.length;
    const { code, stderr } = await runCli(['send', v1.url('/'), '--task-id', taskId, '--context-id', 'another-context', 'Paris']);
    expect(code).toBe(2);
    expect(stderr).toContain('another context');
    expect(sent(from)).toEqual([]);
  });

  it('a failed task: exit 0 (the command did its job), the state on stdout, a warning on stderr (§9.6)', async () => {
    const { code, stdout, stderr } = await runCli(['send', v1.url('/'), 'fail']);
    expect(code).toBe(0);
    expect(field(stdout, 'State')).toBe('TASK_STATE_FAILED');
    expect(stdout).toContain(FAIL_MESSAGE);
    expect(stderr).toContain('the task ended TASK_STATE_FAILED');
  });
});
