import { concatMap, defer, EMPTY, of, take, throwError, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import type { A2APort } from '../port/port.js';
import type { Task } from '../port/types.js';
import { userMessages } from '../render/user-messages.js';
import { threadPages } from './listing.js';
import type { TurnPolicy } from './policy.js';
import { listingBounds, since, type ThreadResumeBounds } from './waiting.js';

/**
 * How many of each listed task's last messages are asked for. The message looked for is a task's
 * newest user message when its turn was cut short (the process died before the agent named the
 * task); the agent's own messages after it are few by then.
 */
export const MESSAGE_HISTORY = 100;

/**
 * The conversation's task that carries the user message `messageId`, or undefined when the agent
 * has none (it never got the message): its recent tasks with their history, page after page within
 * bounds, the conversation's own only. It cannot tell, and fails, when the message may be in a task
 * not seen: a listing the bounds cut before the agent's last page (a `protocol` error), or tasks
 * listed without their history (an `unsupported` error).
 */
export function carrying(
  port: A2APort,
  contextId: string,
  messageId: string,
  policy: TurnPolicy,
  bounds: ThreadResumeBounds = {},
): Observable<Task | undefined> {
  const request = { statusTimestampAfter: since(bounds.windowMs), historyLength: MESSAGE_HISTORY };
  return defer(() => {
    /** A listed task without a user message in its history: it may carry the message, unseen. */
    let blind = false;
    return threadPages(port, contextId, request, listingBounds(policy, bounds)).pipe(
      concatMap((page) => {
        const found = page.tasks.find((task) => userMessages(task.history).some((message) => message.messageId === messageId));
        if (found !== undefined) return of(found);
        blind ||= page.tasks.some((task) => userMessages(task.history).length === 0);
        if (page.after === 'cut') return throwError(() => cannotTell(messageId, 'protocol', LISTING_CUT));
        if (page.after === 'end') return blind ? throwError(() => cannotTell(messageId, 'unsupported', NO_HISTORY)) : of(undefined);
        return EMPTY;
      }),
      take(1),
    );
  });
}

const LISTING_CUT = "its listing of the thread's tasks did not end within the bounds (pages, tasks or a repeated page token)";
const NO_HISTORY = "it lists the thread's tasks without the messages they carry (no history)";

function cannotTell(messageId: string, kind: 'protocol' | 'unsupported', why: string): A2AError {
  return new A2AError({
    kind,
    operation: 'list-tasks',
    message: `could not tell whether the agent got message ${JSON.stringify(messageId)}: ${why}`,
  });
}
