import { asyncScheduler, concatMap, defer, EMPTY, of, take, throwError, timer, type Observable } from 'rxjs';
import { A2AError } from '../../errors.js';
import type { A2APort } from '../../port/port.js';
import type { Task } from '../../port/types.js';
import { userMessages } from '../../render/user-messages.js';
import { threadPages } from './listing.js';
import { backoffDelay, type TurnPolicy } from '../policy.js';
import { listingBounds, since, type ThreadResumeBounds } from './waiting.js';

/**
 * How many of each listed task's last messages are asked for. The message looked for is a task's
 * newest user message when its turn was cut short (the process died before the agent named the
 * task); the agent's own messages after it are few by then.
 */
export const MESSAGE_HISTORY = 100;

/** What a lookup by message that found no task says: not received (it may go again), or that it cannot tell. */
export type NoTaskCarrying = 'not-received' | 'unknown';

/** When the message was sent, for its lookup: the caller's `sentAt` (epoch milliseconds), else the lookup's start. */
export interface SentAt {
  sentAt?: number;
}

/**
 * The conversation's task that carries the user message `messageId`, or why there is none: its
 * recent tasks with their history (those whose status changed since the message was sent, less the
 * policy's `clockSkewMs`; without `sentAt`, within the bounds' window), page after page within bounds,
 * the conversation's own only.
 *
 * - Found: that task.
 * - Listed to the agent's last page without it: `not-received`, but only once `notReceivedAfterMs`
 *   has passed since the message was sent (else since the lookup started); until then the agent may
 *   still be taking it, and the thread is listed again at the poll's pace.
 * - A listing the bounds cut before the agent's last page: `unknown` (it may be in a task not seen:
 *   the message stays pending, never sent again).
 * - Tasks listed without their history: an `unsupported` error (it can never tell).
 */
export function carrying(
  port: A2APort,
  contextId: string,
  messageId: string,
  policy: TurnPolicy,
  bounds: ThreadResumeBounds & SentAt = {},
  random: () => number = Math.random,
): Observable<Task | NoTaskCarrying> {
  return defer(() => {
    const sent = bounds.sentAt ?? asyncScheduler.now();
    const after = bounds.sentAt === undefined ? since(bounds.windowMs) : new Date(bounds.sentAt - policy.clockSkewMs).toISOString();
    const request = { statusTimestampAfter: after, historyLength: MESSAGE_HISTORY };
    const listed = (): Observable<Task | NoTaskCarrying | 'absent'> => {
      /** A listed task without a user message in its history: it may carry the message, unseen. */
      let blind = false;
      return threadPages(port, contextId, request, listingBounds(policy, bounds)).pipe(
        concatMap((page) => {
          const found = page.tasks.find((task) => userMessages(task.history).some((message) => message.messageId === messageId));
          if (found !== undefined) return of(found);
          blind ||= page.tasks.some((task) => userMessages(task.history).length === 0);
          if (page.after === 'cut') return of('unknown' as const);
          if (page.after === 'end') return blind ? throwError(() => cannotTell(messageId)) : of('absent' as const);
          return EMPTY;
        }),
        take(1),
      );
    };
    const lookup = (attempt: number): Observable<Task | NoTaskCarrying> =>
      listed().pipe(
        concatMap((result) => {
          if (result !== 'absent') return of(result);
          const left = sent + policy.notReceivedAfterMs - asyncScheduler.now();
          if (left <= 0) return of('not-received' as const);
          // The agent may still be taking it: list again, at the poll's pace, and once more when the grace is over.
          return timer(Math.min(backoffDelay(policy.poll, attempt, random), left)).pipe(concatMap(() => lookup(attempt + 1)));
        }),
      );
    return lookup(1);
  });
}

function cannotTell(messageId: string): A2AError {
  return new A2AError({
    kind: 'unsupported',
    operation: 'list-tasks',
    message: `could not tell whether the agent got message ${JSON.stringify(messageId)}: it lists the thread's tasks without the messages they carry (no history)`,
  });
}
