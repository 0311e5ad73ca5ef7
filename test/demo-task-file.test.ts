/** The demo agent's task file: the tasks waiting on the user survive a restart; nothing else is kept. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Task, TaskState } from '@a2a-js/sdk';
import { ServerCallContext } from '@a2a-js/sdk/server';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_WAITING_TASKS, TaskFile, taskFileBeside } from '../demo/task-file.js';

const dir = mkdtempSync(join(tmpdir(), 'a4h-task-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const context = new ServerCallContext();
const task = (id: string, state: TaskState): Task =>
  Task.fromJSON({ id, contextId: `ctx-${id}`, status: { state: TaskState[state] }, history: [], artifacts: [] });
const ids = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { tasks: { id: string }[] }).tasks.map((t) => t.id);

describe('the demo task file', () => {
  it('keeps a waiting task across a restart (load and ListTasks find it), and drops it once it moves on', async () => {
    const file = join(dir, 'one.tasks.json');
    const before = await TaskFile.open(file);
    await before.save(task('asked', TaskState.TASK_STATE_INPUT_REQUIRED), context);
    await before.save(task('working', TaskState.TASK_STATE_WORKING), context);
    await before.save(task('done', TaskState.TASK_STATE_COMPLETED), context);
    await before.flush();
    expect(ids(file)).toEqual(['asked']);

    const after = await TaskFile.open(file);
    expect((await after.load('asked', context))?.status?.state).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(await after.load('working', context)).toBeUndefined();
    const listed = await after.list({ contextId: 'ctx-asked' } as Parameters<TaskFile['list']>[0], context);
    expect(listed.tasks.map((t) => t.id)).toEqual(['asked']);

    await after.save(task('asked', TaskState.TASK_STATE_COMPLETED), context);
    await after.flush();
    expect(ids(file)).toEqual([]);
  });

  it(`keeps the ${MAX_WAITING_TASKS} most recent; a corrupt file starts empty`, async () => {
    const file = join(dir, 'many.tasks.json');
    const store = await TaskFile.open(file);
    for (let n = 0; n <= MAX_WAITING_TASKS; n++) await store.save(task(`t${n}`, TaskState.TASK_STATE_AUTH_REQUIRED), context);
    await store.flush();
    expect(ids(file)).toHaveLength(MAX_WAITING_TASKS);
    expect(ids(file)[0]).toBe('t1');
    writeFileSync(file, '{"tasks": [');
    expect(await (await TaskFile.open(file)).load('t1', context)).toBeUndefined();
  });

  it('lives beside the memory file', () => {
    expect(taskFileBeside(join(dir, 'memory-abc.json'))).toBe(join(dir, 'memory-abc.tasks.json'));
  });
});
