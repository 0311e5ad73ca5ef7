import { endsStream, isSettled, type AgentEvent, type TaskState } from '../port/types.js';
import type { TaskFacts } from '../render/renderer.js';

/**
 * The one owner of what a turn knows about the agent's task: its id, its context, its state, and
 * whether the agent answered with a single message and no task. The ladder decides with it
 * (resubscribe or not, stop the stream, cancel at teardown) and the renderer reads it.
 *
 * It is fed in one place, the turn's port (see `trackedPort`): every agent event the turn accepts
 * is observed here before any rung or the renderer sees it.
 */
export class TurnTask implements TaskFacts {
  taskId: string | undefined;
  contextId: string | undefined;
  state: TaskState | undefined;
  messageOnly = false;
  /** Agent events observed in this turn, over every rung. */
  events = 0;
  /** The agent said it does not know the task (TaskNotFound on a resubscribe or a GetTask): nothing to cancel. */
  unknownToAgent = false;
  /**
   * Events may be missing: a resubscription opened without a task snapshot (set by the reconnect
   * rung), and no snapshot came since.
   */
  gap = false;
  /** CancelTask was sent for this turn (at most once). */
  cancelSent = false;

  constructor(start: { contextId?: string } = {}) {
    this.contextId = start.contextId;
  }

  /**
   * False for an event of another task than the one this turn follows: it must neither change the
   * reply nor end the turn. An event that names no task (some servers leave a status-update's
   * `taskId` out) belongs to the turn's task.
   */
  belongs(event: AgentEvent): boolean {
    if (this.taskId === undefined) return true;
    const id = taskIdOf(event);
    return !id || id === this.taskId;
  }

  /** Takes an accepted event into account. */
  observe(event: AgentEvent): void {
    if (event.kind === 'alive') return; // a sign of life is no event of the task
    this.events++;
    switch (event.kind) {
      case 'task':
        this.identify(event.task.id, event.task.contextId);
        this.state = event.task.status.state;
        this.gap = false;
        return;
      case 'status':
        this.identify(event.taskId, event.contextId);
        this.state = event.status.state;
        return;
      case 'artifact':
        this.identify(event.taskId, event.contextId);
        return;
      case 'message':
        if (event.message.contextId) this.contextId = event.message.contextId;
        if (this.taskId === undefined) this.messageOnly = true;
    }
  }

  /** The stream has nothing more to say: terminal, input-required, or a message-only reply. AUTH_REQUIRED keeps listening. */
  get streamDone(): boolean {
    return this.messageOnly || endsStream(this.state);
  }

  /** Terminal or interrupted: the turn may end here, and nothing needs cancelling. */
  get settled(): boolean {
    return this.messageOnly || isSettled(this.state);
  }

  /** A task that is known, not settled, and that the agent has not disowned: abandoning the turn must cancel it. */
  get cancellable(): boolean {
    return this.taskId !== undefined && !this.settled && !this.unknownToAgent;
  }

  private identify(taskId: string, contextId: string | undefined): void {
    if (taskId) this.taskId = taskId;
    if (contextId) this.contextId = contextId;
  }
}

function taskIdOf(event: AgentEvent): string | undefined {
  switch (event.kind) {
    case 'task':
      return event.task.id;
    case 'message':
      return event.message.taskId;
    case 'alive':
      return undefined;
    default:
      return event.taskId;
  }
}
