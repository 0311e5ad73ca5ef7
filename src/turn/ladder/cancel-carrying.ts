import { catchError, EMPTY, type Observable } from 'rxjs';
import { toA2AError } from '../../errors.js';
import type { OutgoingMessage, Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { carrying, type NoTaskCarrying } from '../thread/delivered.js';
import { within } from '../within.js';

/**
 * For a turn left before the agent named its task, once the request read on in the background ended
 * without naming it (an agent that sends no byte until its work is done): the conversation's task
 * that carries the turn's message, found by its `messageId` as a message is delivered once
 * ({@link carrying}: `ListTasks` with history, the conversation's own tasks, since the message was
 * sent), is told to the turn's task, which `cancel` then cancels when it is unsettled. Best effort and
 * bounded (`lookupTimeoutMs`), after the turn has ended for its caller; its subscription goes to
 * `onCancel` like a CancelTask's, so a host's close waits for it. Nothing is sent where nothing can be
 * found: a message without a contextId, a port without ListTasks, an agent without it (v0.3: the
 * port refuses before any request), a host handing its turns over. Failures are logged at debug.
 */
export function cancelCarrying(ctx: LadderContext, message: OutgoingMessage, sentAt: number, cancel: (ctx: LadderContext) => void): void {
  const { contextId, messageId } = message;
  if (!contextId || !messageId || ctx.port.listTasks === undefined || ctx.detached?.()) return;
  ctx.logger.debug({ messageId }, 'the turn was left before the agent named its task: looking it up by its message to cancel it');
  const lookup = carrying(ctx.port, contextId, messageId, ctx.policy, { sentAt }, ctx.random)
    .pipe(
      within<Task | NoTaskCarrying>(ctx.policy.lookupTimeoutMs, 'lookup', 'list-tasks'),
      catchError((error: unknown): Observable<never> => {
        const cause = toA2AError(error, 'list-tasks');
        ctx.logger.debug(
          { messageId, kind: cause.kind, error: cause.message },
          'the task carrying the abandoned message could not be looked up',
        );
        return EMPTY;
      }),
    )
    .subscribe((found) => {
      if (typeof found === 'string') return;
      ctx.task.observe({ kind: 'task', task: found });
      cancel(ctx);
    });
  ctx.onCancel?.(lookup);
}
