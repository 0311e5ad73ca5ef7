import { defer, map, switchMap, type Observable } from 'rxjs';
import type { A2APort } from '../../port/port.js';
import type { Task } from '../../port/types.js';
import type { TurnPolicy } from '../policy.js';
import { foreignTask, ownership } from '../thread-guard.js';
import { notNowPort } from '../not-now.js';
import { within } from '../within.js';

/** A task to cancel: its id, and the conversation it must belong to when the caller names one. */
export interface CancelRequest {
  /** The task. */
  taskId: string;
  /** Its thread's contextId: the task must carry it (checked with one `GetTask` first). */
  contextId?: string;
}

/**
 * `CancelTask` of a task by its id (a Stop button of a page or a gateway, `a4h task cancel`): the
 * task as the agent has it after the cancel, then complete. With `contextId`, one `GetTask` first:
 * a task of another conversation (or one that does not say whose it is) is a `foreign-task` error
 * and nothing is cancelled. Each request bounded (`poll.requestTimeoutMs`, `cancelTimeoutMs`); one
 * answered 429 or 503 is made again within that bound (the policy's `retryAfter`).
 */
export function cancelTask(port: A2APort, request: CancelRequest, policy: TurnPolicy): Observable<Task> {
  // A 429 or 503 waited for as in a turn, within each call's own bound.
  const agent = notNowPort(port, policy, Math.random, Number.POSITIVE_INFINITY);
  const cancel$ = defer(() => agent.cancel(request.taskId)).pipe(within<Task>(policy.cancelTimeoutMs, 'cancel', 'cancel'));
  const { contextId } = request;
  if (contextId === undefined) return cancel$;
  return defer(() => agent.getTask(request.taskId)).pipe(
    within<Task>(policy.poll.requestTimeoutMs, 'poll-request', 'get-task'),
    map((task) => {
      const verdict = ownership(task, contextId);
      if (verdict !== 'ours') throw foreignTask(request.taskId, verdict);
      return task;
    }),
    switchMap(() => cancel$),
  );
}
