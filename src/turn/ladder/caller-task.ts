import { catchError, defer, map, of, throwError, type Observable } from 'rxjs';
import { A2AError, isA2AError } from '../../errors.js';
import { UNSUPPORTED_OPERATION } from '../../port/codes.js';
import type { TaskGoneEvent } from '../../port/events.js';
import type { A2APort } from '../../port/port.js';
import { isTerminal, type OutgoingMessage, type Task } from '../../port/types.js';
import type { TurnPolicy } from '../policy.js';
import { foreignTask, ownership } from '../thread-guard.js';
import { withinFrom } from '../within.js';

/** The message to send after the check, and the note that it goes without the task it named. */
export interface CheckedFollowUp {
  message: OutgoingMessage;
  note?: TaskGoneEvent;
}

/**
 * A task id the caller put on a thread's message, checked before the message goes (the message must
 * not reach another thread's task): one `GetTask`, on `port` itself (the turn does not follow that
 * task yet). The task must carry the message's contextId (or one of `previousContexts`, the thread's
 * under rotated identity secrets: the message then goes there), or the turn ends with a `foreign-task`
 * error and nothing is sent. A task the agent does not know, or one that finished, takes no message:
 * it goes with the contextId only, after a `task-gone` note. A check that fails otherwise is the
 * turn's error (nothing is sent to a task that could not be checked). `clockFrom`: when the
 * request's clock starts (a check started beside the card: at the card's arrival); at once when absent.
 */
export function checkCallerTask(
  port: A2APort,
  policy: TurnPolicy,
  message: OutgoingMessage & { taskId: string; contextId: string },
  previousContexts: readonly string[] = [],
  clockFrom?: Observable<unknown>,
): Observable<CheckedFollowUp> {
  const { taskId, contextId } = message;
  const { taskId: _gone, ...withoutTask } = message;
  /** Without the task (gone or finished), in the conversation the task showed (`into`: a previous secret's). */
  const gone = (cause: A2AError, into = contextId): CheckedFollowUp => ({
    message: { ...withoutTask, contextId: into },
    note: { type: 'task-gone', taskId, cause },
  });
  return defer(() => port.getTask(taskId)).pipe(
    withinFrom<Task>(clockFrom, policy.poll.requestTimeoutMs, 'poll-request', 'get-task'),
    map((task): CheckedFollowUp => {
      // A task under a previous identity secret's contextId is the thread's too: the message goes there.
      const previous = previousContexts.find((candidate) => ownership(task, candidate) === 'ours');
      const verdict = previous === undefined ? ownership(task, contextId) : 'ours';
      if (verdict !== 'ours') throw foreignTask(taskId, verdict);
      const into = previous ?? contextId;
      if (message.ifGenerationMatch !== undefined) answerable(task, message.ifGenerationMatch);
      if (!isTerminal(task.status.state)) return { message: { ...message, contextId: into } };
      return gone(
        new A2AError({
          kind: 'unsupported',
          operation: 'get-task',
          code: UNSUPPORTED_OPERATION,
          message: `the task is ${task.status.state}: a finished task takes no more messages`,
        }),
        into,
      );
    }),
    // An answer to a question (`ifGenerationMatch`) never goes to a new task in its place.
    catchError((error: unknown) =>
      isA2AError(error, 'task-not-found') && message.ifGenerationMatch === undefined ? of(gone(error)) : throwError(() => error),
    ),
  );
}

/**
 * An answer that names the generation of its question (A2A 1.1 draft) goes only to that question:
 * a task that finished, or (when the agent keeps generations) moved past it, is a `conflict` and
 * nothing is sent. The agent's precondition refuses the same; this check keeps the answer from
 * going to a new task instead.
 */
function answerable(task: Task, expected: number): void {
  const moved = task.generation !== undefined && task.generation > 0 && task.generation !== expected;
  if (!isTerminal(task.status.state) && !moved) return;
  const now = moved ? `at generation ${task.generation}` : task.status.state;
  throw new A2AError({
    kind: 'conflict',
    operation: 'send',
    retryable: false,
    message: `the task is ${now}, not at the question this answer names (generation ${expected}): it was answered already, or the task moved on; nothing was sent`,
  });
}
