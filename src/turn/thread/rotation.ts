import { concat, concatMap, defer, find, from, map, of, type Observable } from 'rxjs';
import { listTasksOf } from '../../port/port.js';
import type { ContextAdoptedEvent } from '../../port/notes.js';
import type { LadderContext } from '../context.js';
import { ownTasks } from '../thread-guard.js';
import { boundedLookup } from './lookup-bound.js';

/**
 * The conversation a thread's message goes to after the identity secret was rotated: the current
 * contextId when the agent has any task under it; otherwise the first of the previous secrets'
 * contextIds (`previous`, newest first) under which it has one, where the thread's conversation
 * continues. One `ListTasks` (one task, any age) per contextId at most, in order, stopping at the first
 * that has a task; the whole lookup within `lookupTimeoutMs`. Best effort: an agent without
 * ListTasks (v0.3), a failure or no answer in time keep the current one. Only a listed task that
 * carries the contextId asked for counts (an agent may ignore the filter). `agent$` gives the agent's
 * name once its card is read: the lookup may start before, its clock starts then (see `waitingTask`).
 */
export function rotatedContext(
  ctx: LadderContext,
  current: string,
  previous: readonly string[],
  agent$: Observable<string>,
): Observable<string> {
  const hasTasks = (contextId: string): Observable<boolean> =>
    defer(() => listTasksOf(ctx.port, contextId, { pageSize: 1 })).pipe(map((page) => ownTasks(page.tasks, contextId).length > 0));
  return concat(of(current), from(previous)).pipe(
    concatMap((contextId) => hasTasks(contextId).pipe(map((found) => (found ? contextId : undefined)))),
    find((found): found is string => found !== undefined),
    map((found) => found ?? current),
    boundedLookup(ctx, agent$, current, 'no ListTasks answer for the rotated secrets: the current contextId is used'),
  );
}

/** The note that a thread's message goes to a previous secret's conversation: the thread adopts it. */
export function carriedOver(sent: string, adopted: string): ContextAdoptedEvent {
  return { type: 'context-adopted', sent, adopted, reason: 'previous-secret' };
}
