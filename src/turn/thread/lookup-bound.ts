import { catchError, map, of, take, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import { isA2AError, naming, toA2AError } from '../../errors.js';
import type { LadderContext } from '../context.js';
import { withinFrom } from '../within.js';

/**
 * The bound of a thread's best-effort `ListTasks` lookup: `lookupTimeoutMs`, its clock starting when
 * `agent$` gives the agent's name (the card's arrival); an agent without ListTasks (`unsupported`),
 * a failure or no answer in time give `fallback`, a failure logged at debug with `why` (what the
 * message does without the answer).
 */
export function boundedLookup<T>(ctx: LadderContext, agent$: Observable<string>, fallback: T, why: string): MonoTypeOperatorFunction<T> {
  return (lookup) =>
    lookup.pipe(
      withinFrom<T>(agent$, ctx.policy.lookupTimeoutMs, 'lookup', 'list-tasks'),
      catchError((error: unknown) => {
        if (isA2AError(error, 'unsupported')) return of(fallback);
        return agent$.pipe(
          take(1),
          map((agent) => {
            const named = naming(toA2AError(error, 'list-tasks'), agent, 'list-tasks');
            ctx.logger.debug({ agent, operation: 'list-tasks', error: named.message }, why);
            return fallback;
          }),
        );
      }),
    );
}
