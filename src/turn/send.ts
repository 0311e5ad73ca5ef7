import { catchError, concat, of, switchMap, throwError, type Observable } from 'rxjs';
import { isA2AError, type A2AError } from '../errors.js';
import { UNSUPPORTED_OPERATION } from '../port/codes.js';
import type { AgentEvent, OutgoingMessage, SendResult } from '../port/types.js';
import { cancelWhenNamed } from './cancel.js';
import type { LadderContext } from './context.js';
import type { LadderNote, TaskGoneEvent } from '../port/events.js';
import { pollUntilSettled } from './poll.js';
import { within } from './watchdog.js';

/**
 * The blocking rung: one `SendMessage` that returns when the task is terminal or interrupted. A
 * server that answers early, with the task still submitted or working, is finished by polling.
 */
export function sendBlocking(ctx: LadderContext, message: OutgoingMessage): Observable<AgentEvent | LadderNote> {
  return ctx.port.send(message).pipe(
    cancelWhenNamed(ctx),
    within<SendResult>(ctx.policy.sendTimeoutMs, 'send', 'send'),
    switchMap((result): Observable<AgentEvent | LadderNote> => {
      const taskId = ctx.task.taskId;
      if (ctx.task.settled || taskId === undefined) return of(result);
      return concat(of(result), of<LadderNote>({ type: 'polling', reason: 'send-returned-early' }), pollUntilSettled(ctx, taskId, true));
    }),
    // After the switchMap, so the resend's own events and polls pass through once.
    catchError((error: unknown) => {
      const gone = taskGone(ctx, message, error);
      return gone ? concat(of<LadderNote>(gone.note), sendBlocking(ctx, gone.message)) : throwError(() => error);
    }),
  );
}

/**
 * The agent's own word that a task is gone: TaskNotFound, or -32004 (UnsupportedOperation, which
 * servers answer for a task that finished). An HTTP 404, 405 or 501 is not: it refuses the method or
 * the path, whatever the task, and the ladder falls back to a blocking send with the task id.
 */
function saysTaskGone(error: unknown): error is A2AError {
  return isA2AError(error, 'task-not-found') || (isA2AError(error, 'unsupported') && error.code === UNSUPPORTED_OPERATION);
}

/**
 * A follow-up to an interrupted task that the agent refused before any event because the task is
 * gone (TaskNotFound) or finished (-32004): the same message again, with the contextId only.
 */
export function taskGone(
  ctx: LadderContext,
  message: OutgoingMessage,
  error: unknown,
): { note: TaskGoneEvent; message: OutgoingMessage } | undefined {
  if (message.taskId === undefined || ctx.task.events > 0 || !saysTaskGone(error)) return undefined;
  const { taskId, ...rest } = message;
  return { note: { type: 'task-gone', taskId, cause: error }, message: rest };
}
