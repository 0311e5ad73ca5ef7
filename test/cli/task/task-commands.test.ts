import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVIL_FILE, startTaskAgent, TASK_MOUNTS } from '../../../fixtures/agent-tasks.js';
import { REPLY_FILE } from '../../../fixtures/texts.js';
import type { FixtureAgent } from '../../../fixtures/index.js';
import { field, fields, runCli, useTaskAgent } from './task-kit.js';

let agent: FixtureAgent;
/** Starts a task with the raw SDK client (waiting for it to settle when `wait`): its id and contextId. Slow tasks tick
 * for 15 s: they are still working when a command started after them reaches them. */
const startTask = useTaskAgent(
  () => startTaskAgent({ timing: { slowTotalMs: 15_000, tickMs: 500 } }),
  TASK_MOUNTS.push,
  (a) => (agent = a),
);

describe('a4h task cancel', () => {
  it('cancels a working task and reports the resulting state; again, the same answer (idempotent), exit 0 both times', async () => {
    const { id, contextId } = await startTask('slow');
    const first = await runCli(['task', 'cancel', id, '-a', agent.url('/')]);
    expect(first.code).toBe(0);
    expect(field(first.stdout, 'Task ID')).toBe(id);
    expect(field(first.stdout, 'Context ID')).toBe(contextId);
    expect(field(first.stdout, 'State')).toBe('TASK_STATE_CANCELED');
    const again = await runCli(['task', 'cancel', id, '-a', agent.url('/'), '-o', 'json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ id, status: { state: 'TASK_STATE_CANCELED' } });
  });

  it('a task that completed cannot be canceled: TaskNotCancelableError naming its state, exit 1', async () => {
    const { id } = await startTask('artifacts', { wait: true });
    const { code, stdout } = await runCli(['task', 'cancel', id, '-a', agent.url('/'), '-o', 'json']);
    expect(code).toBe(1);
    const { error } = JSON.parse(stdout) as { error: { code: string; message: string } };
    expect(error.code).toBe('TaskNotCancelableError');
    expect(error.message).toContain('TASK_STATE_COMPLETED');
  });
});

describe('a4h task list', () => {
  it("lists a context's tasks, filters by state, and pages with the cursor", async () => {
    const contextId = `ctx-list-${Math.random()}`;
    const done = [await startTask('artifacts', { wait: true, contextId }), await startTask('artifacts', { wait: true, contextId })];
    const waiting = await startTask('input', { wait: true, contextId });
    /** `a4h task list` of the context, with `more` flags. */
    const list = (...more: string[]) => runCli(['task', 'list', '-a', agent.url('/'), '--context-id', contextId, ...more]);
    const all = await list();
    expect(all.code).toBe(0);
    expect(new Set(fields(all.stdout, 'Task ID'))).toEqual(new Set([...done.map((t) => t.id), waiting.id]));
    expect(new Set(fields(all.stdout, 'Context ID'))).toEqual(new Set([contextId]));

    const completed = await list('--status', 'completed', '-o', 'json');
    const page = JSON.parse(completed.stdout) as { tasks: { id: string; status: { state: string } }[] };
    expect(new Set(page.tasks.map((t) => t.id))).toEqual(new Set(done.map((t) => t.id)));
    expect(page.tasks.every((t) => t.status.state === 'TASK_STATE_COMPLETED')).toBe(true);

    const first = await list('--page-size', '2');
    const token = field(first.stdout, 'Next Page Token');
    expect(fields(first.stdout, 'Task ID')).toHaveLength(2);
    expect(token).toBeDefined();
    const second = await list('--page-size', '2', '--page-token', token!);
    expect(fields(second.stdout, 'Task ID')).toHaveLength(1);
    expect(new Set([...fields(first.stdout, 'Task ID'), ...fields(second.stdout, 'Task ID')]).size).toBe(3);
  }, 90_000);

  it('an unknown --status is a usage error naming the states', async () => {
    const { code, stderr } = await runCli(['task', 'list', '-a', agent.url('/'), '--status', 'done']);
    expect(code).toBe(2);
    expect(stderr).toContain('input-required');
  });
});

describe('a4h task subscribe', () => {
  it('--stream -o json: one StreamResponse per line, the whole Task first, the settling status update last', async () => {
    const { id, contextId } = await startTask('slow');
    const { code, stdout } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--stream', '-o', 'json']);
    expect(code).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, { status?: { state: string } }>);
    expect(lines[0]).toMatchObject({ task: { id, contextId } });
    expect(lines.at(-1)).toMatchObject({ statusUpdate: { taskId: id, status: { state: 'TASK_STATE_COMPLETED' } } });
    expect(lines.some((line) => 'artifactUpdate' in line)).toBe(true);
  });

  it('without --stream: the task as it settled, one document', async () => {
    const { id } = await startTask('input');
    const { code, stdout } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '-o', 'json']);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ id, status: { state: 'TASK_STATE_INPUT_REQUIRED' } });
  });

  it('a task that has ended already: read once, exit 0', async () => {
    const { id } = await startTask('artifacts', { wait: true });
    const { code, stdout } = await runCli(['task', 'subscribe', id, '-a', agent.url('/'), '--stream']);
    expect(code).toBe(0);
    expect(fields(stdout, 'State').at(-1)).toBe('TASK_STATE_COMPLETED');
  });
});

describe('a4h task download', () => {
  it("saves the artifacts' files, data and text into the directory", async () => {
    const { id } = await startTask('file', { wait: true });
    const dir = await mkdtemp(join(tmpdir(), 'a4h-download-'));
    const { code, stdout } = await runCli(['task', 'download', id, '-a', agent.url('/'), '--dir', dir]);
    expect(code).toBe(0);
    expect(field(stdout, 'Task ID')).toBe(id);
    const saved = fields(stdout, 'Saved');
    expect(saved).toContain(join(dir, REPLY_FILE.filename));
    expect(await readFile(join(dir, REPLY_FILE.filename), 'utf8')).toBe(REPLY_FILE.text);
  });

  it('a file named to climb out of the directory is written inside it, under its base name', async () => {
    const { id } = await startTask('anything', { mount: TASK_MOUNTS.evil, wait: true });
    const dir = await mkdtemp(join(tmpdir(), 'a4h-download-'));
    const nested = join(dir, 'a', 'b');
    const { code } = await runCli(['task', 'download', id, '-a', agent.url(TASK_MOUNTS.evil), '--dir', nested]);
    expect(code).toBe(0);
    expect((await readdir(nested)).sort()).toEqual(['answer.txt', 'data-1.json', 'escaped.txt']);
    expect(await readFile(join(nested, 'escaped.txt'), 'utf8')).toBe(EVIL_FILE.text);
    expect(await readdir(dir)).toEqual(['a']);
  });
});

describe('a4h task push-config', () => {
  it("create, get, list and delete a task's config; the token never printed", async () => {
    const { id } = await startTask('artifacts', { wait: true });
    const a = ['-a', agent.url('/')];
    const env = { A4H_PUSH_TOKEN: 'push-secret-value' };
    const created = await runCli(
      [
        'task',
        'push-config',
        'create',
        id,
        ...a,
        '--url',
        'http://127.0.0.1:9/hook',
        '--config-id',
        'c1',
        '--token-env',
        'A4H_PUSH_TOKEN',
        '-o',
        'json',
      ],
      { env },
    );
    expect(created.code).toBe(0);
    expect(JSON.parse(created.stdout)).toEqual({ id: 'c1', taskId: id, url: 'http://127.0.0.1:9/hook' });
    const got = await runCli(['task', 'push-config', 'get', id, 'c1', ...a]);
    expect(got.code).toBe(0);
    expect(field(got.stdout, 'Config ID')).toBe('c1');
    expect(field(got.stdout, 'URL')).toBe('http://127.0.0.1:9/hook');
    expect(field(got.stdout, 'Token')).toBe('(set)');
    expect(got.stdout + got.stderr + created.stdout + created.stderr).not.toContain('push-secret-value');
    const listed = await runCli(['task', 'push-config', 'list', id, ...a, '-o', 'json']);
    expect((JSON.parse(listed.stdout) as { configs: { id: string }[] }).configs.map((c) => c.id)).toEqual(['c1']);
    // --task-id is the positional's other spelling, as on every task command.
    const named = await runCli(['task', 'push-config', 'get', '--task-id', id, 'c1', ...a, '-o', 'json']);
    expect([named.code, (JSON.parse(named.stdout) as { id: string }).id]).toEqual([0, 'c1']);
    const deleted = await runCli(['task', 'push-config', 'delete', '--task-id', id, 'c1', ...a]);
    expect(deleted.code).toBe(0);
    const after = await runCli(['task', 'push-config', 'list', id, ...a, '-o', 'json']);
    expect((JSON.parse(after.stdout) as { configs: unknown[] }).configs).toEqual([]);
  }, 90_000);

  it("an agent whose card offers no push notifications: the protocol's error by name, exit 1, and nothing sent (the card checked first)", async () => {
    const { id } = await startTask('anything', { mount: TASK_MOUNTS.evil, wait: true });
    const from = agent.received.length;
    const { code, stdout } = await runCli(['task', 'push-config', 'list', id, '-a', agent.url(TASK_MOUNTS.evil), '-o', 'json']);
    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'PushNotificationNotSupportedError', a2aCode: -32003 } });
    // Only the card was fetched: the agent never saw a push-config call (its own answer would have been the same error).
    const calls = agent.received.slice(from).filter((r) => r.mount === TASK_MOUNTS.evil);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((r) => r.method.startsWith('GET ') && r.method.endsWith('agent-card.json'))).toBe(true);
  });
});

describe("the task commands' wire flags (§5.2, §11)", () => {
  it('--transport picks the binding, --debug logs each call on stderr without the credentials, a bad --transport is usage', async () => {
    const { id } = await startTask('artifacts', { wait: true });
    const from = agent.received.length;
    const args = ['task', 'get', id, '-a', agent.url('/'), '--transport', 'HTTP+JSON', '--debug', '-H', 'X-Secret-Header: hush-0123456789'];
    const { code, stdout, stderr } = await runCli(args);
    expect(code).toBe(0);
    expect(field(stdout, 'Task ID')).toBe(id);
    expect(agent.received.slice(from).map((r) => r.method)).toContain(`GET /tasks/${id}`);
    expect(stderr).toMatch(new RegExp(`a4h: debug: #\\d+ → GET .*/tasks/${id}`));
    expect(stderr).toMatch(/a4h: debug: #\d+ {3}x-secret-header: \[redacted\]/);
    expect(stderr).not.toContain('hush-0123456789');
    const bad = await runCli(['task', 'get', id, '-a', agent.url('/'), '--transport', 'carrier-pigeon']);
    expect(bad.code).toBe(2);
  });
});
