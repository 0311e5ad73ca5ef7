/**
 * The demo agent's task store: the SDK's in-memory store, and a JSON file of the tasks that wait on
 * the user (input-required, auth-required), so a question the agent asked is still there after a
 * restart, as its memory is: `npm start` restarts the agent with the chat, and the chat shows the
 * question again and answers it in its task. Tasks that finished or were still working are not kept
 * (a working task's work died with the process). The demo has no users or tenants: every task is
 * read back into the one scope its unauthenticated calls use.
 */
import { Task, TaskState } from '@a2a-js/sdk';
import type { ListTasksRequest, ListTasksResponse } from '@a2a-js/sdk';
import { InMemoryTaskStore, ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import { JsonFile, readJson } from './json-file.js';

/** How many waiting tasks the file keeps (the most recently saved win). */
export const MAX_WAITING_TASKS = 100;

const WAITING: ReadonlySet<TaskState> = new Set([TaskState.TASK_STATE_INPUT_REQUIRED, TaskState.TASK_STATE_AUTH_REQUIRED]);

/** The task file beside a memory file: `memory.json` → `memory.tasks.json`. */
export function taskFileBeside(memoryFile: string): string {
  return `${memoryFile.replace(/\.json$/, '')}.tasks.json`;
}

/** A {@link TaskStore} whose waiting tasks survive a restart. Create it with {@link TaskFile.open}. */
export class TaskFile implements TaskStore {
  readonly #tasks = new InMemoryTaskStore();
  /** The waiting tasks as JSON, by id, least recently saved first. */
  readonly #waiting = new Map<string, unknown>();
  readonly #file: JsonFile;

  private constructor(file: string) {
    this.#file = new JsonFile(file, () => ({ version: 1, tasks: [...this.#waiting.values()] }));
  }

  /** Reads `file` (its folder must exist); a missing or corrupt file, or a malformed task in it, is skipped. */
  static async open(file: string): Promise<TaskFile> {
    const store = new TaskFile(file);
    const stored = (await readJson(file)) as { tasks?: unknown } | undefined;
    const context = new ServerCallContext();
    for (const json of Array.isArray(stored?.tasks) ? stored.tasks.slice(-MAX_WAITING_TASKS) : []) {
      let task: Task;
      try {
        task = Task.fromJSON(json);
      } catch {
        continue;
      }
      if (task.id === '' || !WAITING.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) continue;
      store.#waiting.set(task.id, Task.toJSON(task));
      await store.#tasks.save(task, context);
    }
    return store;
  }

  async save(task: Task, context: ServerCallContext): Promise<void> {
    await this.#tasks.save(task, context);
    const had = this.#waiting.delete(task.id);
    if (WAITING.has(task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED)) {
      this.#waiting.set(task.id, Task.toJSON(task));
      for (const oldest of this.#waiting.keys()) {
        if (this.#waiting.size <= MAX_WAITING_TASKS) break;
        this.#waiting.delete(oldest);
      }
    } else if (!had) {
      return; // nothing the file holds changed
    }
    this.#file.changed();
  }

  load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    return this.#tasks.load(taskId, context);
  }

  list(params: ListTasksRequest, context: ServerCallContext): Promise<ListTasksResponse> {
    return this.#tasks.list(params, context);
  }

  /** Resolves once every change so far is on disk. */
  flush(): Promise<void> {
    return this.#file.flush();
  }
}
