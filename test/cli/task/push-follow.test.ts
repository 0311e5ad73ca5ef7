/**
 * followByPush (`task subscribe --push`'s follow) on a scripted port and push source: the paths a real
 * agent does not take on cue. A lost push healed by the check; a push of another task left out; a
 * stop that deletes the config; a config the agent refuses; a config that cannot be deleted.
 */
import { of, Subject, throwError, type Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { followByPush } from '../../../src/cli/commands/task/push-follow.js';
import type { A2APort, AgentEvent, NewPushConfig, PushConfigPort, PushSource, Task, TaskState } from '../../../src/index.js';

const task = (state: TaskState): Task => ({ id: 'T', contextId: 'C', status: { state }, artifacts: [], history: [] }) as unknown as Task;

/** A port whose GetTask answers the states given, one per call (the last again), and whose config calls are recorded. */
function scripted(states: TaskState[], options: { refuse?: boolean; undeletable?: boolean } = {}) {
  const calls: string[] = [];
  let reads = 0;
  const port = {
    getTask: (): Observable<Task> => {
      calls.push('getTask');
      return of(task(states[Math.min(reads++, states.length - 1)]!));
    },
    createPushConfig: (config: NewPushConfig) => {
      calls.push(`create ${config.id} ${config.url} ${config.token}`);
      return options.refuse ? throwError(() => new Error('refused')) : of({ ...config, id: config.id! });
    },
    deletePushConfig: (_taskId: string, id: string) => {
      calls.push(`delete ${id}`);
      return options.undeletable ? throwError(() => new Error('gone away')) : of(true as const);
    },
  } as unknown as A2APort & PushConfigPort;
  return { port, calls };
}

/** A push source whose pushes the test posts. */
function source() {
  const pushes = new Subject<AgentEvent>();
  const push: PushSource = {
    target: (contextId) => of({ url: 'http://127.0.0.1:1/', token: `token-for-${contextId}`, id: 'a4h-push' }),
    events: () => pushes,
  };
  return { push, pushes };
}

const base = { taskId: 'T', requestTimeoutMs: 1_000, stop$: new Subject<void>(), leftConfig: () => undefined };

describe('followByPush', () => {
  it('a lost push: the check shows the task that moved without one, and the follow ends there; the config made and deleted', async () => {
    const { port, calls } = scripted(['working', 'working', 'completed']);
    const shown: AgentEvent[] = [];
    const followed = await followByPush({ ...base, port, source: source().push, checkEveryMs: 20, show: (e) => shown.push(e) });
    expect(followed).toEqual({ id: 'T', contextId: 'C', state: 'completed', stopped: false });
    expect(shown.map((e) => (e.kind === 'task' ? e.task.status.state : e.kind))).toEqual(['working', 'completed']);
    // The config's URL names it: another config's posts to the same receiver are not shown twice.
    expect(calls[1]).toMatch(/^create (a4h-push-[0-9a-f]{8}) http:\/\/127\.0\.0\.1:1\/\?a4h-config=\1 token-for-C$/);
    expect(calls.at(-1)).toBe(`delete ${calls[1]!.split(' ')[1]}`);
  });

  it('a push of another task is left out; this task’s push ends it', async () => {
    const { port } = scripted(['working']);
    const { push, pushes } = source();
    const shown: AgentEvent[] = [];
    const done = followByPush({ ...base, port, source: push, checkEveryMs: 60_000, show: (e) => shown.push(e) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    pushes.next({ kind: 'status', taskId: 'other', contextId: 'C', status: { state: 'completed' }, final: true } as AgentEvent);
    pushes.next({ kind: 'status', taskId: 'T', contextId: 'C', status: { state: 'input-required' }, final: true } as AgentEvent);
    expect((await done).state).toBe('input-required');
    expect(shown.map((e) => (e.kind === 'status' ? e.taskId : e.kind))).toEqual(['task', 'T']);
  });

  it('stopped: the follow ends stopped, the config deleted', async () => {
    const { port, calls } = scripted(['working']);
    const stop$ = new Subject<void>();
    const done = followByPush({ ...base, port, source: source().push, stop$, checkEveryMs: 60_000, show: () => undefined });
    await new Promise((resolve) => setTimeout(resolve, 20));
    stop$.next();
    expect(await done).toMatchObject({ stopped: true, state: 'working' });
    expect(calls.at(-1)).toMatch(/^delete a4h-push-/);
  });

  it('a config the agent refuses is the error; a task already settled makes none', async () => {
    const refused = scripted(['working'], { refuse: true });
    await expect(followByPush({ ...base, port: refused.port, source: source().push, show: () => undefined })).rejects.toThrow('refused');
    expect(refused.calls.some((call) => call.startsWith('delete'))).toBe(false);
    const settled = scripted(['completed']);
    expect((await followByPush({ ...base, port: settled.port, source: source().push, show: () => undefined })).state).toBe('completed');
    expect(settled.calls).toEqual(['getTask']);
  });

  it('a config that cannot be deleted is told, and the follow still ends as it did', async () => {
    const { port } = scripted(['working', 'completed'], { undeletable: true });
    const left: string[] = [];
    const followed = await followByPush({
      ...base,
      port,
      source: source().push,
      show: () => undefined,
      leftConfig: (id, error) => left.push(`${id}: ${(error as Error).message}`),
    });
    expect(followed.state).toBe('completed');
    expect(left).toEqual([expect.stringMatching(/^a4h-push-[0-9a-f]{8}: gone away$/)]);
  });
});
