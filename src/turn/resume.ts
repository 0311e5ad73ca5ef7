import { catchError, concat, defer, map, of, skip, switchMap, throwError, type Observable } from 'rxjs';
import { isA2AError, naming } from '../errors.js';
import type { EndEvent, TurnEvent } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import type { Task } from '../port/types.js';
import type { CardSummary } from '../port/card.js';
import { carrying, type SentAt } from './thread/delivered.js';
import { resolvePolicy, type TurnPolicy } from './policy.js';
import { runResume, type LadderOptions } from './turn.js';
import { newestUnfinished, type ThreadResumeBounds } from './thread/waiting.js';
import { within } from './within.js';

export type { ThreadResumeBounds } from './thread/waiting.js';

/**
 * Resumes a conversation's reply in flight: its recent tasks (`ListTasks` by `contextId`, page after
 * page within bounds, newest first as the agent orders them, another conversation's tasks skipped);
 * the newest task that is not finished is followed as {@link runResume} follows it: a running one to
 * its end, an interrupted one to its end with that outcome (so the thread's next message continues
 * it). Nothing unfinished: `start`, then an `end` with outcome `none`. An agent without ListTasks
 * (v0.3) fails with an `unsupported` error: resume its task by id instead.
 */
export function resumeThread(port: A2APort, contextId: string, options: LadderOptions & ThreadResumeBounds = {}): Observable<TurnEvent> {
  const nothing: EndEvent = { type: 'end', outcome: 'none', text: '', contextId };
  return resumeFound(port, contextId, options, (policy) =>
    newestUnfinished(port, contextId, policy, options).pipe(map((task) => task ?? nothing)),
  );
}

/**
 * Resumes the turn of one message of a conversation, by its `messageId` (the one the caller chose,
 * or the turn's `start` event named): the task that carries that message (found with `ListTasks`
 * with history, the conversation's own tasks only) is followed to its end, whatever its state, as
 * {@link runResume} follows it. When the agent has no task carrying the message once it had time to
 * take it (`notReceivedAfterMs` since `sentAt`, else since the resume started: the thread is listed
 * again until then), the end says so with outcome `not-received` and the message can be sent again
 * (with the same `messageId`). A listing the bounds cut short (more tasks on the thread since the
 * message was sent than they list) ends with outcome `unknown`: the message stays pending, never sent
 * again; ask later. `sentAt` (epoch milliseconds) also bounds the listing to the tasks changed since
 * then (less the policy's `clockSkewMs`, for the agent's clock), not a day's. An agent without ListTasks (v0.3), or one that
 * lists tasks without their history, fails with an `unsupported` error. A message the agent answered
 * with a message and no task leaves nothing to find: such agents look as if they never got it.
 */
export function resumeMessage(
  port: A2APort,
  contextId: string,
  messageId: string,
  options: LadderOptions & ThreadResumeBounds & SentAt = {},
): Observable<TurnEvent> {
  return resumeFound(port, contextId, options, (policy) =>
    carrying(port, contextId, messageId, policy, options, options.random).pipe(
      map((found): Task | EndEvent =>
        typeof found === 'string' ? { type: 'end', outcome: found, text: '', contextId, messageId } : found,
      ),
    ),
  );
}

/** `start`, the card, then the task `find` finds followed to its end (without its own start), or the end it gives instead. */
function resumeFound(
  port: A2APort,
  contextId: string,
  options: LadderOptions,
  find: (policy: TurnPolicy) => Observable<Task | EndEvent>,
): Observable<TurnEvent> {
  return defer(() => {
    const start = of<TurnEvent>({ type: 'start', contextId });
    let policy: TurnPolicy;
    try {
      policy = resolvePolicy(options.policy);
    } catch (error) {
      return concat(
        start,
        throwError(() => error),
      );
    }
    const found$ = port.card().pipe(
      within<CardSummary>(policy.cardTimeoutMs, 'card', 'card'),
      switchMap((card) =>
        find(policy).pipe(
          // A lookup's own errors (its bounds) name the agent, as the port's do.
          catchError((error: unknown) => throwError(() => (isA2AError(error) ? naming(error, card.url, 'list-tasks') : error))),
        ),
      ),
      // The resumed turn's own start is this one's: it is left out.
      switchMap((found) =>
        'type' in found ? of(found) : runResume(port, { taskId: found.id, contextId }, { ...options, policy }).pipe(skip(1)),
      ),
    );
    return concat(start, found$);
  });
}
