import { A2AError } from '../errors.js';
import type { AgentEvent, Task } from '../port/types.js';

/**
 * Whose a task is, as one thing the agent sent tells it: `ours` when it names the thread's
 * contextId, `foreign` when it names another, `unsaid` when it names none.
 */
export type Ownership = 'ours' | 'foreign' | 'unsaid';

/**
 * The one check of "a task belongs to its thread": a task (a snapshot, a `ListTasks` entry) or an
 * event of it is the thread's when it carries the thread's contextId. Resume by id or position, a
 * caller's `taskId` on a message and every task a `ListTasks` answer lists are checked with it.
 */
export function ownership(of: Task | AgentEvent, contextId: string): Ownership {
  const named = contextOf(of);
  if (named === undefined || named === '') return 'unsaid';
  return named === contextId ? 'ours' : 'foreign';
}

/** The tasks of a `ListTasks` answer that are the thread's (an agent may ignore the filter: strangers are skipped). */
export function ownTasks(tasks: readonly Task[], contextId: string): Task[] {
  return tasks.filter((task) => ownership(task, contextId) === 'ours');
}

/**
 * The error of a task that is not the thread's (or that the agent does not say is): the turn ends
 * with it before anything of the task is shown, and the task is not cancelled. It names the task
 * id the caller gave, never the other conversation's contextId.
 */
export function foreignTask(taskId: string, why: Exclude<Ownership, 'ours'>, agent?: string): A2AError {
  const reason =
    why === 'foreign' ? 'it belongs to another conversation' : 'the agent does not say which conversation it belongs to (no contextId)';
  return new A2AError({
    kind: 'foreign-task',
    operation: 'turn',
    ...(agent === undefined ? {} : { agent }),
    message: `task ${quoted(taskId)} is not this thread's: ${reason}; nothing of it is shown, sent or cancelled`,
  });
}

function contextOf(of: Task | AgentEvent): string | undefined {
  if (!('kind' in of)) return of.contextId;
  switch (of.kind) {
    case 'task':
      return of.task.contextId;
    case 'message':
      return of.message.contextId;
    case 'alive':
      return undefined;
    default:
      return of.contextId;
  }
}

/** An id for a message: quoted, and cut when long (the caller's ids are bounded, but an error should stay short). */
function quoted(id: string): string {
  return JSON.stringify(id.length > 80 ? `${id.slice(0, 80)}…` : id);
}
