import { filter, tap, type MonoTypeOperatorFunction, type Subscription } from 'rxjs';
import { isA2AError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { A2APort } from '../port/port.js';
import type { AgentEvent } from '../port/types.js';
import type { TurnPolicy } from './policy.js';
import type { TurnTask } from './task.js';

/** Everything a rung of the ladder needs, per turn subscription. */
export interface LadderContext {
  readonly port: A2APort;
  readonly policy: TurnPolicy;
  readonly random: () => number;
  readonly logger: Logger;
  /** What the turn knows of the agent's task, current before any rung sees an event. */
  readonly task: TurnTask;
  /** Told of each CancelTask in flight, so a host can wait for it before it exits. */
  readonly onCancel?: (cancel: Subscription) => void;
}

/**
 * The port as one turn sees it: events of another task than the turn's are dropped, and every
 * other agent event is observed by `task` before any rung or the renderer sees it; a TaskNotFound
 * on the turn's own task (resubscribe, GetTask) tells `task` the agent no longer has it.
 */
export function trackedPort(port: A2APort, task: TurnTask): A2APort {
  const track =
    <T extends AgentEvent>(): MonoTypeOperatorFunction<T> =>
    (events) =>
      events.pipe(
        filter((event) => task.belongs(event)),
        tap((event) => task.observe(event)),
      );
  const disowned = (error: unknown): void => {
    if (isA2AError(error, 'task-not-found')) task.unknownToAgent = true;
  };
  return {
    card: () => port.card(),
    send: (message) => port.send(message).pipe(track()),
    stream: (message) => port.stream(message).pipe(track()),
    resubscribe: (taskId) => port.resubscribe(taskId).pipe(track(), tap({ error: disowned })),
    getTask: (taskId) =>
      port.getTask(taskId).pipe(
        filter((snapshot) => task.belongs({ kind: 'task', task: snapshot })),
        tap({ next: (snapshot) => task.observe({ kind: 'task', task: snapshot }), error: disowned }),
      ),
    cancel: (taskId) => port.cancel(taskId),
  };
}
