import { asyncScheduler, catchError, defer, map, of, type Observable } from 'rxjs';
import { isA2AError, toA2AError } from '../errors.js';
import { isInterrupted, isTerminal, type Task } from '../port/types.js';
import type { LadderContext } from './context.js';
import { within } from './watchdog.js';

/** How far back a conversation's unfinished task is looked for: a day. */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/**
 * The task the agent left waiting on a conversation (input-required, auth-required), if any: one
 * recent `ListTasks` page, the newest unfinished task, if it is interrupted. Best effort: an agent
 * without ListTasks, a failure or a running task give none (the message then starts a task, and a
 * task gone meanwhile is the ladder's task-gone case).
 */
export function waitingTask(ctx: LadderContext, contextId: string): Observable<string | undefined> {
  const since = new Date(asyncScheduler.now() - RECENT_MS).toISOString();
  return defer(() =>
    ctx.port.listTasks === undefined ? of<Task[]>([]) : ctx.port.listTasks(contextId, { statusTimestampAfter: since, pageSize: 20 }),
  ).pipe(
    within<Task[]>(ctx.policy.poll.requestTimeoutMs, 'poll-request', 'list-tasks'),
    map((tasks) => {
      const newest = tasks.find((task) => !isTerminal(task.status.state));
      return newest !== undefined && isInterrupted(newest.status.state) ? newest.id : undefined;
    }),
    catchError((error: unknown) => {
      if (!isA2AError(error, 'unsupported')) ctx.logger.debug({ error: toA2AError(error).message }, 'no ListTasks answer for the thread');
      return of(undefined);
    }),
  );
}
