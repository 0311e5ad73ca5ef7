import { catchError, EMPTY, filter, type Observable } from 'rxjs';
import { toA2AError } from '../../errors.js';
import type { AgentEvent } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { pollOnce } from './live.js';

/** Messages of history asked for: enough to hold the agent's last message after the user's. */
export const HISTORY_FOR_REPLY = 10;

/**
 * After a task that completed with nothing to show (no artifact text, no status message, no file),
 * one `GetTask` with {@link HISTORY_FOR_REPLY} messages of history: some agents put their answer
 * only in the task's history, which the ladder's `historyLength: 0` leaves out; some send their
 * reply after the final status, later than the stream was read (see `stream-done.ts`). The snapshot
 * goes to the renderer, which takes its artifacts, else the agent's last message, as the reply.
 * Best effort: an answer with neither leaves the end as it was; a failed request is marked on the
 * task (`markReplyUnread`), and the end says the reply was not read (`replyMissing`).
 */
export function replyFromHistory(ctx: LadderContext, nothingShown: () => boolean): Observable<AgentEvent> {
  const { taskId, state, messageOnly } = ctx.task;
  if (taskId === undefined || state !== 'completed' || messageOnly || !nothingShown()) return EMPTY;
  return pollOnce(ctx, taskId, HISTORY_FOR_REPLY).pipe(
    // The task's artifacts are its reply as well: an agent whose reply came after its final status, later than the stream was read.
    filter((event) => event.kind === 'task' && ((event.task.history?.length ?? 0) > 0 || event.task.artifacts.length > 0)),
    catchError((error: unknown) => {
      const cause = toA2AError(error, 'get-task');
      // The end says so (`replyMissing: unread`, with the cause): the log only notes it for debugging.
      ctx.logger.debug({ taskId, error: cause.message }, "could not read the completed task's history for its reply");
      ctx.task.markReplyUnread(cause);
      return EMPTY;
    }),
  );
}
