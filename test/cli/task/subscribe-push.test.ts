/**
 * `a4h task subscribe --push` (the A2A CLI specification's A2ACLI_PUSH_002, a local webhook receiver)
 * against a real `@a2a-js/sdk` 1.3 agent whose own `DefaultPushNotificationSender` posts each event:
 * every push of a task printed once, in order; a push without the credential, with a forged one, for
 * another task or thread refused or dropped, never printed; the config gone at the end and on Ctrl-C.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { connect } from '../../../fixtures/sdk-client.js';
import { startTaskAgent, TASK_MOUNTS } from '../../../fixtures/agent-tasks.js';
import { quietPushSends } from '../../../fixtures/push-quiet.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { pushCredentials } from '../../../src/index.js';
import { eventually } from '../../eventually.js';
import { SECRET, startCli } from '../run-cli.js';
import { field, fields, runCli, useTaskAgent } from './task-kit.js';

quietPushSends(); // the SDK's sender prints a line per push: its pushes are what stdout shows here
let agent: FixtureAgent;
/** Slow tasks tick 20 times, 300 ms apart: most of their events come after the command made its config, on a busy machine too. */
const startTask = useTaskAgent(
  () => startTaskAgent({ timing: { slowTotalMs: 6_000, tickMs: 300 } }),
  TASK_MOUNTS.push,
  (a) => (agent = a),
);
const TICKS = 20;

/** The push configs the agent keeps for `taskId`, read with the SDK's raw client. */
async function configsOf(taskId: string): Promise<unknown[]> {
  const client = await connect(agent, TASK_MOUNTS.push);
  return (await client.listTaskPushNotificationConfig({ tenant: '', taskId, pageSize: 100, pageToken: '' })).configs;
}

/** The URL the running command said it listens at. */
async function listeningUrl(stderr: () => string): Promise<string> {
  await eventually(() => /listening for pushes at (\S+)/.test(stderr()), 30_000);
  return /listening for pushes at (\S+)/.exec(stderr())![1]!;
}

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The `tick N` numbers of an artifact chunk's text, in order. */
const ticksIn = (text: string): number[] => [...text.matchAll(/tick (\d+)/g)].map((m) => Number(m[1]));

type Line = {
  task?: { id: string; status: { state: string }; artifacts?: { parts: { text?: string }[] }[] };
  artifactUpdate?: { taskId: string; artifact: { parts: { text?: string }[] } };
  statusUpdate?: { taskId: string; status: { state: string; message?: { parts: { text?: string }[] } } };
};

describe('a4h task subscribe --push', () => {
  it('--stream -o json: the task as it stood, then every push of it once and in order, the completed status last; exit 0, no config left', async () => {
    const { id, contextId } = await startTask('slow');
    const { code, stdout, stderr } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--stream', '-o', 'json']);
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/listening for pushes at http:\/\/127\.0\.0\.1:\d+\//);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    expect(lines[0]).toMatchObject({ task: { id, contextId } });
    const before = ticksIn(JSON.stringify(lines[0]!.task!.artifacts ?? []));
    const pushed = lines
      .slice(1)
      .flatMap((line) => (line.artifactUpdate ? ticksIn(line.artifactUpdate.artifact.parts[0]!.text ?? '') : []));
    // Once each, in order, none missing after what the first record showed (a push posted while it was read may restate its last).
    expect(pushed.length).toBeGreaterThan(3);
    expect(pushed).toEqual(Array.from({ length: pushed.length }, (_, i) => pushed[0]! + i));
    expect(pushed.at(-1)).toBe(TICKS);
    expect(pushed[0]).toBeLessThanOrEqual((before.at(-1) ?? 0) + 1);
    expect(lines.at(-1)).toMatchObject({ statusUpdate: { taskId: id, status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(lines.every((line) => (line.artifactUpdate?.taskId ?? line.statusUpdate?.taskId ?? line.task?.id) === id)).toBe(true);
    expect(await configsOf(id)).toEqual([]);
  });

  it('without --stream, -o json: the task as it settled, one document; text: its fields', async () => {
    const { id } = await startTask('slow');
    const json = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '-o', 'json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ id, status: { state: 'TASK_STATE_COMPLETED' } });
    const again = await startTask('slow');
    const text = await runCli(['task', 'subscribe', again.id, '-a', agent.url('/'), '--push', '--stream']);
    expect(text.code, text.stderr).toBe(0);
    expect(fields(text.stdout, 'State').at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(fields(text.stdout, 'Task ID').at(-1)).toBe(again.id);
    expect(field(text.stdout, 'Context ID')).toBe(again.contextId);
    expect(await configsOf(again.id)).toEqual([]);
  });

  it('a push with no credential, a forged one, one signed with another secret, for another thread or task: refused or dropped, never printed', async () => {
    const { id, contextId } = await startTask('slow');
    const run = startCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--stream', '-o', 'json'], { timeoutMs: 60_000 });
    const url = await listeningUrl(run.stderr);
    await eventually(() => run.output().includes('"task"'), 30_000);
    const forged = (taskId: string, context: string) =>
      JSON.stringify({
        statusUpdate: {
          taskId,
          contextId: context,
          status: { state: 'TASK_STATE_COMPLETED', message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'FORGED' }] } },
        },
      });
    const post = (body: string, token?: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/a2a+json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) },
        body,
      }).then((response) => response.status);
    const mine = pushCredentials({ secret: SECRET });
    const theirs = pushCredentials({ secret: 'another deployment secret, 32 bytes' });
    expect(await post(forged(id, contextId))).toBe(401);
    expect(await post(forged(id, contextId), 'a4hp1.Zm9v.0.AAAA')).toBe(401);
    expect(await post(forged(id, contextId), await theirs.issue(contextId))).toBe(401);
    // A good credential for another thread than the task's, and one of this thread for a task the command does not follow.
    expect(await post(forged(id, contextId), await mine.issue('another-thread'))).toBe(403);
    expect(await post(forged('another-task', contextId), await mine.issue(contextId))).toBe(204);
    const { code, stdout } = await run.result;
    expect(code).toBe(0);
    expect(stdout).not.toContain('FORGED');
    expect(stdout).not.toContain('another-task');
    const last = JSON.parse(stdout.trim().split('\n').at(-1)!) as Line;
    expect(last.statusUpdate).toMatchObject({ taskId: id, status: { state: 'TASK_STATE_COMPLETED' } });
    expect(ticksIn(stdout).at(-1)).toBe(TICKS);
  });

  it('Ctrl-C: the config deleted, the task left running, exit 1 saying so', async () => {
    const { id } = await startTask('slow');
    const run = startCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--stream'], { timeoutMs: 60_000 });
    await listeningUrl(run.stderr);
    await eventually(() => run.output().includes('Task ID:'), 30_000);
    await eventually(() => run.output().includes('tick'), 30_000);
    run.child.kill('SIGINT');
    const { code, stderr } = await run.result;
    expect(code).toBe(1);
    expect(stderr).toContain(`stopped following task ${id} by push: its push config was deleted`);
    expect(await configsOf(id)).toEqual([]);
    const client = await connect(agent, TASK_MOUNTS.push);
    expect((await client.getTask({ tenant: '', id, historyLength: 0 })).status?.state).not.toBe(7); // not canceled
  });

  it("with send --push-url: the message's config and the command's post the same events to one receiver, each printed once", async () => {
    const port = await freePort();
    // The agent posts before the command listens, and after it left (the message's config stays): its failures said by the SDK, kept quiet here.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    onTestFinished(() => quiet.mockRestore());
    const sent = await runCli(['send', agent.url('/'), '--push-url', `http://127.0.0.1:${port}/`, '--async', 'slow']);
    expect(sent.code, sent.stderr).toBe(0);
    const id = field(sent.stdout, 'Task ID')!;
    const args = ['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--push-listen', `127.0.0.1:${port}`, '--stream', '-o', 'json'];
    const { code, stdout, stderr } = await runCli(args);
    expect(code, stderr).toBe(0);
    expect(stderr).toContain(`listening for pushes at http://127.0.0.1:${port}/`);
    const pushed = stdout
      .trim()
      .split('\n')
      .slice(1)
      .flatMap((line) => ticksIn(JSON.stringify((JSON.parse(line) as Line).artifactUpdate ?? '')));
    expect(pushed.length).toBeGreaterThan(3);
    expect(pushed).toEqual(Array.from({ length: pushed.length }, (_, i) => pushed[0]! + i));
    expect(pushed.at(-1)).toBe(TICKS);
    // The command deleted its own config only: the message's is the agent's to keep.
    const client = await connect(agent, TASK_MOUNTS.push);
    expect((await configsOf(id)).map((config) => (config as { id: string }).id)).toEqual(['a4h-push']);
    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: id, id: 'a4h-push' });
  });

  it('without A4H_IDENTITY_SECRET: a secret made for the run signs the credential, said on stderr; the pushes come all the same', async () => {
    const { id } = await startTask('slow');
    const { code, stdout, stderr } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--stream'], {
      env: { A4H_IDENTITY_SECRET: undefined },
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('A4H_IDENTITY_SECRET is not set: the push credential is signed with a secret made for this run');
    expect(fields(stdout, 'State').at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(ticksIn(stdout).at(-1)).toBe(TICKS);
  });

  it('a task that has ended already: read once, no config made', async () => {
    const { id } = await startTask('artifacts', { wait: true });
    const { code, stdout } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--push', '--stream']);
    expect(code).toBe(0);
    expect(fields(stdout, 'State').at(-1)).toBe('TASK_STATE_COMPLETED');
    expect(await configsOf(id)).toEqual([]);
  });

  it("an agent whose card offers no push notifications: the protocol's error by name, exit 1", async () => {
    const { id } = await startTask('slow', { mount: TASK_MOUNTS.evil });
    const { code, stdout } = await runCli(['task', 'subscribe', id, '-a', agent.url(TASK_MOUNTS.evil), '--push', '-o', 'json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'PushNotificationNotSupportedError' } });
  });

  it.each([
    [['--push-url', 'http://127.0.0.1:9/'], '--push-listen and --push-url say where pushes come: give --push too'],
    [['--push', '--push-listen', 'nowhere'], '--push-listen takes HOST:PORT (127.0.0.1:8080, [::1]:0), not "nowhere"'],
    [['--push', '--push-url', 'ftp://x/'], '--push-url takes the http(s) URL the agent posts to, not "ftp://x/"'],
  ])('a usage mistake, before anything is opened: %j', async (flags, message) => {
    const { code, stderr } = await runCli(['task', 'subscribe', 'T1', '-a', 'http://127.0.0.1:9/', ...flags]);
    expect(code).toBe(2);
    expect(stderr).toBe(`Error: A2ACLI_ERR_USAGE\nMessage: ${message}\nHint: a4h task subscribe --help\n`);
  });

  it('--help says each flag', async () => {
    const { code, stdout } = await runCli(['task', 'subscribe', '--help']);
    expect(code).toBe(0);
    expect(stdout).toContain('[--push [--push-listen HOST:PORT] [--push-url URL]]');
    expect(stdout).toMatch(/--push-listen HOST:PORT +where the receiver listens \(default 127\.0\.0\.1:0/);
    expect(stdout).toContain('"listening for pushes at URL"');
  });
});
