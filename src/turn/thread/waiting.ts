import { asyncScheduler, concatMap, find, from, map, type Observable } from 'rxjs';
import type { A2APort } from '../../port/port.js';
import { isInterrupted, isTerminal, type Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { threadPages, type ListingBounds } from './listing.js';
import type { TurnPolicy } from '../policy.js';
import { boundedLookup } from './lookup-bound.js';

/** How far back a conversation's unfinished task is looked for: a day. */
export const RECENT_MS = 24 * 60 * 60 * 1000;

/** How far back a conversation's unfinished task is looked for, and how many of its tasks are read. */
export interface ThreadResumeBounds {
  /** Only tasks whose status changed this recently. Default one day. */
  windowMs?: number;
  /** Tasks asked for per `ListTasks` page, newest first. Default 20. */
  pageSize?: number;
  /** Pages followed at most (`nextPageToken`; a token seen before ends the listing). Default 10. */
  maxPages?: number;
  /** Tasks read at most over all pages. Default 500. */
  maxTasks?: number;
}

/**
 * The listing bounds of a thread lookup: the caller's, then the defaults, each page bounded like a
 * poll (its clock from `clockFrom`'s first value, when given: see {@link ListingBounds}).
 */
export function listingBounds(policy: TurnPolicy, bounds: ThreadResumeBounds = {}, clockFrom?: Observable<unknown>): ListingBounds {
  return {
    pageSize: bounds.pageSize ?? 20,
    maxPages: bounds.maxPages ?? 10,
    maxTasks: bounds.maxTasks ?? 500,
    requestTimeoutMs: policy.poll.requestTimeoutMs,
    ...(clockFrom === undefined ? {} : { clockFrom }),
  };
}

/** `statusTimestampAfter` for tasks that changed within `windowMs`. */
export function since(windowMs = RECENT_MS): string {
  return new Date(asyncScheduler.now() - windowMs).toISOString();
}

/**
 * The newest task of a conversation that is not finished, if any: its recent tasks, newest first as
 * the agent orders them, page after page until one is unfinished (bounded: {@link ThreadResumeBounds});
 * tasks of another conversation are skipped. An agent without ListTasks (v0.3) fails with an
 * `unsupported` error. `clockFrom`: when the pages' clocks start (see {@link ListingBounds}).
 */
export function newestUnfinished(
  port: A2APort,
  contextId: string,
  policy: TurnPolicy,
  bounds: ThreadResumeBounds = {},
  clockFrom?: Observable<unknown>,
): Observable<Task | undefined> {
  const listing = listingBounds(policy, bounds, clockFrom);
  return threadPages(port, contextId, { statusTimestampAfter: since(bounds.windowMs) }, listing).pipe(
    concatMap((page) => from(page.tasks)),
    find((task) => !isTerminal(task.status.state)),
  );
}

/**
 * The task the agent left waiting on a conversation (input-required, auth-required), if any: the
 * newest unfinished task, if it is interrupted. Best effort and short: an agent without ListTasks, a
 * failure, a running task, or no answer within `lookupTimeoutMs` give none (the message then starts
 * a task, and a task gone meanwhile is the ladder's task-gone case). A failure is logged, naming the
 * agent and the call.
 *
 * `agent$` gives the agent's name once its card is read: the lookup may start before (beside the
 * card), its clocks start then, and a failure is logged then.
 */
export function waitingTask(ctx: LadderContext, contextId: string, agent$: Observable<string>): Observable<string | undefined> {
  return newestUnfinished(ctx.port, contextId, ctx.policy, {}, agent$).pipe(
    map((newest) => (newest !== undefined && isInterrupted(newest.status.state) ? newest.id : undefined)),
    boundedLookup<string | undefined>(ctx, agent$, undefined, 'no ListTasks answer for the thread: the message goes without it'),
  );
}
