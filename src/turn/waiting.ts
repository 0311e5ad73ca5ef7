import { asyncScheduler, catchError, map, of, type Observable } from 'rxjs';
import { isA2AError, toA2AError } from '../errors.js';
import { listTasksOf, type A2APort } from '../port/port.js';
import { isInterrupted, isTerminal, type Task } from '../port/types.js';
import type { LadderContext } from './context.js';
import type { TurnPolicy } from './policy.js';
import { within } from './watchdog.js';

/** How far back a conversation's unfinished task is looked for: a day. */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/** How far back a conversation's unfinished task is looked for, and how many of its tasks are read. */
export interface ThreadResumeBounds {
  /** Only tasks whose status changed this recently. Default one day. */
  windowMs?: number;
  /** One page of at most this many tasks, newest first. Default 20. */
  pageSize?: number;
}

/**
 * The newest task of a conversation that is not finished, if any: one `ListTasks` page of its recent
 * tasks, newest first as the agent orders them, bounded like a poll. An agent without ListTasks (v0.3)
 * fails with an `unsupported` error.
 */
export function newestUnfinished(
  port: A2APort,
  contextId: string,
  policy: TurnPolicy,
  bounds: ThreadResumeBounds = {},
): Observable<Task | undefined> {
  const since = new Date(asyncScheduler.now() - (bounds.windowMs ?? RECENT_MS)).toISOString();
  return listTasksOf(port, contextId, { statusTimestampAfter: since, pageSize: bounds.pageSize ?? 20 }).pipe(
    within<Task[]>(policy.poll.requestTimeoutMs, 'poll-request', 'list-tasks'),
    map((tasks) => tasks.find((task) => !isTerminal(task.status.state))),
  );
}

/**
 * The task the agent left waiting on a conversation (input-required, auth-required), if any: the
 * newest unfinished task, if it is interrupted. Best effort: an agent without ListTasks, a failure or
 * a running task give none (the message then starts a task, and a task gone meanwhile is the
 * ladder's task-gone case).
 */
export function waitingTask(ctx: LadderContext, contextId: string): Observable<string | undefined> {
  return newestUnfinished(ctx.port, contextId, ctx.policy).pipe(
    map((newest) => (newest !== undefined && isInterrupted(newest.status.state) ? newest.id : undefined)),
    catchError((error: unknown) => {
      if (!isA2AError(error, 'unsupported')) ctx.logger.debug({ error: toA2AError(error).message }, 'no ListTasks answer for the thread');
      return of(undefined);
    }),
  );
}
