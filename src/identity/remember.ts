import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { ContextAdoptedEvent, TurnEvent } from '../port/events.js';
import type { ThreadRegistry } from './registry.js';

/** How one turn of a thread started: the contextId it sent and the interrupted task it continues. */
export interface ThreadTurnStart {
  contextId: string;
  taskId?: string;
  /** The turn looks for the thread's conversation under previous secrets: if it reaches no task, the next message looks again. */
  rotates?: boolean;
}

/**
 * What a thread remembers of one of its turns, as an operator over the turn's events:
 *
 * - **The guard.** When the agent answers a message of the thread's with another contextId than
 *   the one sent, the thread adopts it for its next turns and `context-adopted` is emitted once,
 *   before the event that showed it; `onAdopted` hears of it once per thread (an error it throws is
 *   the turn's error). Without `onAdopted` (a resume: it sent nothing) nothing is adopted.
 * - **A rotated secret.** A `context-adopted` note of the turn's own (`reason: 'previous-secret'`: the
 *   message went to the thread's conversation under a previous identity secret) is adopted as it
 *   passes: the thread uses that contextId from now on, and `onCarried` hears of it.
 * - **Follow-ups.** A turn that ends input-required or auth-required leaves its task for the
 *   thread's next message; any other end clears it. A turn that never reached the agent's task
 *   (unsubscribed or failed before it) gives the interrupted task it took back to the thread, and
 *   the look under previous secrets (`rotates`) too: the next message looks again.
 */
export function rememberThread(
  threads: ThreadRegistry,
  key: string,
  sent: ThreadTurnStart,
  onAdopted: ((adopted: string) => void) | undefined,
  onCarried?: (adopted: string) => void,
): MonoTypeOperatorFunction<TurnEvent> {
  // One hop (this is every event's path): the guard, then the follow-up bookkeeping; on teardown, the taken task given back.
  return (events) =>
    new Observable<TurnEvent>((subscriber) => {
      let adopted: string | undefined;
      let reachedTask = false;
      let ended = false;
      const adopt = (seen: string): ContextAdoptedEvent => {
        adopted = seen;
        threads.update(key, { adoptedContextId: seen });
        if (!threads.get(key)?.adoptionLogged) {
          threads.update(key, { adoptionLogged: true });
          onAdopted!(seen);
        }
        return { type: 'context-adopted', sent: sent.contextId, adopted: seen };
      };
      const upstream = events.subscribe({
        next: (event) => {
          if (event.type === 'context-adopted' && event.reason === 'previous-secret') {
            adopted = event.adopted;
            threads.update(key, { adoptedContextId: event.adopted });
            onCarried?.(event.adopted);
            return subscriber.next(event);
          }
          const seen = event.type === 'task' || event.type === 'end' ? event.contextId : undefined;
          if (onAdopted !== undefined && seen !== undefined && seen !== sent.contextId && seen !== adopted) {
            let adoption: ContextAdoptedEvent;
            try {
              adoption = adopt(seen);
            } catch (error) {
              return subscriber.error(error);
            }
            subscriber.next(adoption);
          }
          if (event.type === 'task' || event.type === 'task-gone') reachedTask = true;
          if (event.type === 'end') {
            ended = true;
            const interrupted = event.outcome === 'input-required' || event.outcome === 'auth-required';
            threads.update(key, { interruptedTaskId: interrupted ? event.taskId : undefined });
          }
          subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        upstream.unsubscribe();
        if (ended || reachedTask) return;
        if (sent.taskId !== undefined) threads.update(key, { interruptedTaskId: sent.taskId });
        if (sent.rotates === true && adopted === undefined) threads.update(key, { rotationChecked: undefined });
      };
    });
}
