import { filter, type Subscription } from 'rxjs';
import type { Logger } from '../logger.js';
import type { A2APort } from '../port/port.js';
import { isSettled, isTerminal, type AgentEvent, type TaskState } from '../port/types.js';
import type { TurnPolicy } from './policy.js';

/**
 * What one turn subscription knows about the agent's task: the ladder's decisions (resubscribe or
 * not, stop the stream, cancel at teardown) read it. It is fed by the port itself (see
 * {@link trackedPort}), so it is current before any rung looks at an event.
 */
export class TaskTracker {
  taskId: string | undefined;
  state: TaskState | undefined;
  /** The agent answered with a single message and no task. */
  messageOnly = false;
  /** Agent events seen in this turn, over every rung. */
  events = 0;

  /** Events of another task, dropped (a confused or hostile server). */
  foreign = 0;

  /**
   * Takes an event into account, or refuses it (false) when it belongs to another task than the
   * one this turn follows: it must neither change the reply nor end the turn.
   */
  accept(event: AgentEvent): boolean {
    const id = taskIdOf(event);
    if (this.taskId !== undefined && id !== undefined && id !== this.taskId) {
      this.foreign++;
      return false;
    }
    this.observe(event);
    return true;
  }

  observe(event: AgentEvent): void {
    this.events++;
    switch (event.kind) {
      case 'task':
        this.taskId = event.task.id;
        this.state = event.task.status.state;
        return;
      case 'status':
        this.taskId = event.taskId;
        this.state = event.status.state;
        return;
      case 'artifact':
        this.taskId = event.taskId;
        return;
      case 'message':
        if (this.taskId === undefined) this.messageOnly = true;
    }
  }

  /** The stream has nothing more to say: terminal, input-required, or a message-only reply. AUTH_REQUIRED keeps listening. */
  get streamDone(): boolean {
    return this.messageOnly || isTerminal(this.state) || this.state === 'input-required';
  }

  /** Terminal or interrupted: the turn may end here, and nothing needs cancelling. */
  get settled(): boolean {
    return this.messageOnly || isSettled(this.state);
  }
}

/** Everything a rung of the ladder needs, per turn subscription. */
export interface LadderContext {
  readonly port: A2APort;
  readonly policy: TurnPolicy;
  readonly random: () => number;
  readonly logger: Logger;
  readonly tracker: TaskTracker;
  /** Told of each CancelTask in flight, so a host can wait for it before it exits. */
  readonly onCancel?: (cancel: Subscription) => void;
}

function taskIdOf(event: AgentEvent): string | undefined {
  switch (event.kind) {
    case 'task':
      return event.task.id;
    case 'message':
      return event.message.taskId;
    default:
      return event.taskId;
  }
}

/**
 * The port with every agent event it delivers recorded by `tracker` first; events of another task
 * than the turn's are dropped there, before any rung or the renderer sees them.
 */
export function trackedPort(port: A2APort, tracker: TaskTracker): A2APort {
  const record = <T extends AgentEvent>() => filter((event: T) => tracker.accept(event));
  return {
    card: () => port.card(),
    send: (message) => port.send(message).pipe(record()),
    stream: (message) => port.stream(message).pipe(record()),
    resubscribe: (taskId) => port.resubscribe(taskId).pipe(record()),
    getTask: (taskId) => port.getTask(taskId).pipe(filter((task) => tracker.accept({ kind: 'task', task }))),
    cancel: (taskId) => port.cancel(taskId),
  };
}
