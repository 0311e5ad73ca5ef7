import { catchError, defer, map, Observable, throwError, timer, type Subscription } from 'rxjs';
import { A2AError, isA2AError } from '../../errors.js';
import type { A2APort } from '../../port/port.js';
import { isSettled, type AgentEvent, type TaskState } from '../../port/types.js';
import { backoffDelay, type Backoff } from '../policy.js';

/** How {@link followTask} reconnects a stream that broke. */
export interface FollowReconnect extends Backoff {
  /** Resubscriptions in a row without an event between them before the break is the answer. */
  maxAttempts: number;
  /** The backoff's randomness, in [0, 1). Default `Math.random`. */
  random?: () => number;
}

/** The state an event says its task is in, when it says one. */
function stateOf(event: AgentEvent): TaskState | undefined {
  if (event.kind === 'task') return event.task.status.state;
  if (event.kind === 'status') return event.status.state;
  return undefined;
}

/**
 * A task's events (`SubscribeToTask`), followed until the task settles (terminal, or waiting for the
 * user), then complete. A stream that breaks or ends before that is subscribed to again (a sign of
 * life is no event and is not passed on): the protocol sends the whole task first on each
 * subscription, so nothing is lost and no `GetTask` is needed; `maxAttempts` breaks in a row with no
 * event between them end it with the last break's error. A task that has ended already (the agent
 * refuses the subscription as unsupported) is read once with `GetTask` and given as one task event.
 */
export function followTask(port: A2APort, taskId: string, reconnect: FollowReconnect): Observable<AgentEvent> {
  const random = reconnect.random ?? Math.random;
  const ended$ = defer(() => port.getTask(taskId)).pipe(map((task): AgentEvent => ({ kind: 'task', task })));
  return new Observable<AgentEvent>((subscriber) => {
    let inner: Subscription | undefined;
    let waiting: Subscription | undefined;
    let breaks = 0;
    let subscriptions = 0;
    const again = (error: unknown): void => {
      breaks++;
      if (breaks > reconnect.maxAttempts) return subscriber.error(error);
      waiting = timer(backoffDelay(reconnect, breaks, random)).subscribe(open);
    };
    const open = (): void => {
      const first = subscriptions++ === 0;
      const stream$ = port.resubscribe(taskId).pipe(
        // Refused at the first subscription as unsupported: the task has ended (or streams are not offered); it is read once.
        catchError((error: unknown) => (first && isA2AError(error, 'unsupported') ? ended$ : throwError(() => error))),
      );
      let settled = false;
      inner = stream$.subscribe({
        next: (event) => {
          if (event.kind === 'alive') return;
          breaks = 0;
          subscriber.next(event);
          if (isSettled(stateOf(event))) {
            settled = true;
            subscriber.complete();
          }
        },
        error: (error: unknown) => (isA2AError(error) && error.retryable ? again(error) : subscriber.error(error)),
        complete: () => {
          if (!settled && !subscriber.closed)
            again(new A2AError({ kind: 'stream-closed', operation: 'resubscribe', message: 'the stream ended before the task settled' }));
        },
      });
    };
    open();
    return () => {
      waiting?.unsubscribe();
      inner?.unsubscribe();
    };
  });
}
