import { concat, defer, of, skip, switchMap, throwError, type Observable } from 'rxjs';
import type { TurnEvent } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import { resolvePolicy, type TurnPolicy } from './policy.js';
import { runResume, type LadderOptions } from './turn.js';
import { newestUnfinished, type ThreadResumeBounds } from './waiting.js';

export type { ThreadResumeBounds } from './waiting.js';

/**
 * Resumes a conversation's reply in flight: one `ListTasks` page of the conversation (`contextId`),
 * recent ones only, newest first as the agent orders them; the newest task that is not finished is
 * followed as {@link runResume} follows it: a running one to its end, an interrupted one to its end
 * with that outcome (so the thread's next message continues it). Nothing unfinished: `start`, then
 * an `end` with outcome `none`. An agent without ListTasks (v0.3) fails with an `unsupported` error:
 * resume its task by id instead.
 */
export function resumeThread(port: A2APort, contextId: string, options: LadderOptions & ThreadResumeBounds = {}): Observable<TurnEvent> {
  return defer(() => {
    let policy: TurnPolicy;
    try {
      policy = resolvePolicy(options.policy);
    } catch (error) {
      return concat(
        of<TurnEvent>({ type: 'start', contextId }),
        throwError(() => error),
      );
    }
    const nothing: TurnEvent = { type: 'end', outcome: 'none', text: '', contextId };
    const follow$ = newestUnfinished(port, contextId, policy, options).pipe(
      // The resumed turn's own start is this one's: it is left out.
      switchMap((unfinished) =>
        unfinished === undefined
          ? of(nothing)
          : runResume(port, { taskId: unfinished.id, contextId }, { ...options, policy }).pipe(skip(1)),
      ),
    );
    return concat(of<TurnEvent>({ type: 'start', contextId }), follow$);
  });
}
