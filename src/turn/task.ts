import type { A2AError } from '../errors.js';
import { endsStream, isSettled, type AgentEvent, type AgentMessage, type Elicitation, type TaskState } from '../port/types.js';
import type { TaskFacts } from '../render/renderer.js';
import { lastUserMessage } from '../render/user-messages.js';
import { Elicitations } from './elicitations.js';
import { Generations } from './generations.js';
import { foreignTask, ownership } from './thread-guard.js';

/**
 * The one owner of what a turn knows about the agent's task: its id, its context, its state, and
 * whether the agent answered with a single message and no task. The ladder decides with it
 * (resubscribe or not, stop the stream, cancel at teardown) and the renderer reads it.
 *
 * Read everywhere, written only here: the agent's events are observed in one place, the turn's port
 * (see `trackedPort`), before any rung or the renderer sees them; the ladder's own findings go through
 * the verbs {@link markGap}, {@link disown}, {@link markReplyUnread} and {@link claimCancel}.
 */
export class TurnTask implements TaskFacts {
  private id: string | undefined;
  private context: string | undefined;
  private current: TaskState | undefined;
  private stamp: string | undefined;
  private onlyMessage = false;
  private observed = 0;
  private disowned = false;
  private missing = false;
  /** CancelTask was sent for this turn (at most once). */
  private cancelClaimed = false;
  /** The conversation a followed task must carry (a resume on a thread), until an event showed it does. */
  private owner: string | undefined;
  /** The followed task turned out to be another thread's: nothing of it is shown or cancelled. */
  private refused = false;
  /** A resumed turn: the person's message that its task answers is looked for in the task's first snapshot. */
  private readonly resumed: boolean;
  /** A task snapshot was observed. */
  private snapshotSeen = false;
  /** The person's newest message in the resumed task's history, once a snapshot carried it. */
  private said: AgentMessage | undefined;
  /** Why the completed task could not be read back for its reply, when that read failed. */
  private unread: A2AError | undefined;
  /** The task's generations as the agent gives them (A2A 1.1): the events seen already, the ones skipped. */
  readonly generations = new Generations();
  /** The task's requests for input as the agent tells them (A2A 1.1 draft, ADR-002). */
  private readonly asks = new Elicitations();

  /**
   * `resumes`: the task a resumed turn follows, known before any event (so leaving it cancels it).
   * With `contextId` too, that task must be the conversation's: see {@link refusal}.
   */
  constructor(start: { contextId?: string; resumes?: string } = {}) {
    this.context = start.contextId;
    this.id = start.resumes;
    this.resumed = start.resumes !== undefined;
    if (start.resumes !== undefined) this.owner = start.contextId;
  }

  /** A resumed turn's request: the person's newest message in its task's first snapshot that had one. */
  get request(): AgentMessage | undefined {
    return this.said;
  }
  /**
   * A resumed turn that has seen no snapshot of its task yet: the snapshot it gets by `GetTask` asks
   * for history, so that its `request` can be shown (a resubscription's opening snapshot carries the
   * task as the agent keeps it). Never true for a turn that sends a message.
   */
  get wantsRequest(): boolean {
    return this.resumed && !this.snapshotSeen;
  }

  /** The agent's task, once it named one. */
  get taskId(): string | undefined {
    return this.id;
  }
  /** The conversation's contextId: the one sent, or the one the agent answered with. */
  get contextId(): string | undefined {
    return this.context;
  }
  /** The task's last known state. */
  get state(): TaskState | undefined {
    return this.current;
  }
  /** The task's last generation, while the agent keeps them (A2A 1.1 draft). */
  get generation(): number | undefined {
    return this.generations.current;
  }

  /** The task's requests for input, when the agent sent any (A2A 1.1 draft). */
  get elicitations(): Elicitation[] | undefined {
    return this.asks.list;
  }
  /** The time of the task's last known status, as the agent wrote it, when it said. */
  get statusTime(): string | undefined {
    return this.stamp;
  }
  /** The agent answered with a single message and no task. */
  get messageOnly(): boolean {
    return this.onlyMessage;
  }
  /** Agent events observed in this turn, over every rung. */
  get events(): number {
    return this.observed;
  }
  /** The agent said it does not know the task (TaskNotFound on a resubscribe or a GetTask): nothing to cancel. */
  get unknownToAgent(): boolean {
    return this.disowned;
  }
  /**
   * Events may be missing and no snapshot came since: a resubscription opened without a task snapshot,
   * or (A2A 1.1) an update skipped a generation.
   */
  get gap(): boolean {
    return this.missing || this.generations.gap;
  }

  /** Why events may be missing, when they may. */
  get gapReason(): 'resubscribed-without-snapshot' | 'generation-gap' | undefined {
    return this.missing ? 'resubscribed-without-snapshot' : this.generations.gap ? 'generation-gap' : undefined;
  }

  /** The completed task could not be read back for its reply (the GetTask at a bare end failed): why. */
  get replyUnread(): A2AError | undefined {
    return this.unread;
  }

  /** The GetTask that was to bring a completed task's reply failed with `cause`: the reply, if any, was not read. */
  markReplyUnread(cause: A2AError): void {
    this.unread = cause;
  }

  /** A resubscription opened without the task snapshot it should open with: events may be missing until the next snapshot. */
  markGap(): void {
    this.missing = true;
  }

  /** The agent said it does not know the task: it is not cancelled. */
  disown(): void {
    this.disowned = true;
  }

  /**
   * True once, for the caller that is to send the turn's CancelTask: the task is known, unsettled and
   * not disowned, and no cancel was claimed before. False for every other call.
   */
  claimCancel(): boolean {
    if (this.cancelClaimed || !this.cancellable) return false;
    this.cancelClaimed = true;
    return true;
  }

  /**
   * False for an event of another task than the one this turn follows: it must neither change the
   * reply nor end the turn. An event that names no task (some servers leave a status-update's
   * `taskId` out) belongs to the turn's task.
   */
  belongs(event: AgentEvent): boolean {
    if (this.id === undefined) return true;
    const id = taskIdOf(event);
    return !id || id === this.id;
  }

  /**
   * For a task followed on a thread (a resume by id or position): the error that ends the turn when
   * `event` shows the task is not the thread's — it names another contextId, or, before any event
   * named the thread's, none at all. From then on the task is never cancelled. Undefined for an event
   * that may be shown (and for every event of a turn that follows no thread's task).
   */
  refusal(event: AgentEvent): A2AError | undefined {
    if (this.owner === undefined || event.kind === 'alive') return undefined;
    const verdict = ownership(event, this.owner);
    if (verdict === 'ours') {
      this.owner = undefined; // shown to be the thread's: later events are the task's own
      return undefined;
    }
    this.refused = true;
    return foreignTask(this.id ?? '', verdict);
  }

  /** Takes an accepted event into account. */
  observe(event: AgentEvent): void {
    if (event.kind === 'alive') return; // a sign of life is no event of the task
    this.observed++;
    this.generations.observe(event);
    this.asks.observe(event);
    switch (event.kind) {
      case 'task':
        this.identify(event.task.id, event.task.contextId);
        this.current = event.task.status.state;
        this.stamp = event.task.status.timestamp;
        this.missing = false;
        this.snapshotSeen = true;
        if (this.resumed) this.said ??= lastUserMessage(event.task.history);
        return;
      case 'status':
        this.identify(event.taskId, event.contextId);
        this.current = event.status.state;
        this.stamp = event.status.timestamp;
        return;
      case 'artifact':
        this.identify(event.taskId, event.contextId);
        return;
      case 'message':
        if (event.message.contextId) this.context = event.message.contextId;
        if (this.id === undefined) this.onlyMessage = true;
    }
  }

  /** The stream has nothing more to say: terminal, input-required, or a message-only reply. AUTH_REQUIRED keeps listening. */
  get streamDone(): boolean {
    return this.onlyMessage || endsStream(this.current);
  }

  /** Terminal or interrupted: the turn may end here, and nothing needs cancelling. */
  get settled(): boolean {
    return this.onlyMessage || isSettled(this.current);
  }

  /** A task that is known, not settled, and that the agent has not disowned: abandoning the turn must cancel it. */
  get cancellable(): boolean {
    return this.id !== undefined && !this.settled && !this.disowned && !this.refused;
  }

  private identify(taskId: string, contextId: string | undefined): void {
    if (taskId) this.id = taskId;
    if (contextId) this.context = contextId;
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
