import { concat, of, switchMap, type Observable } from 'rxjs';
import type { AgentEvent, OutgoingMessage, SendResult } from '../wire/types.js';
import type { LadderContext } from './context.js';
import type { LadderNote } from './events.js';
import { pollUntilSettled } from './poll.js';
import { within } from './watchdog.js';

/**
 * The blocking rung: one `SendMessage` that returns when the task is terminal or interrupted. A
 * server that answers early, with the task still submitted or working, is finished by polling.
 */
export function sendBlocking(ctx: LadderContext, message: OutgoingMessage): Observable<AgentEvent | LadderNote> {
  return ctx.port.send(message).pipe(
    within<SendResult>(ctx.policy.sendTimeoutMs, 'send', 'send'),
    switchMap((result): Observable<AgentEvent | LadderNote> => {
      const taskId = ctx.tracker.taskId;
      if (ctx.tracker.settled || taskId === undefined) return of(result);
      return concat(
        of(result),
        of<LadderNote>({ type: 'polling', reason: 'send-returned-early' }),
        pollUntilSettled(ctx, taskId, true),
      );
    }),
  );
}
