import { A2AError } from '../errors.js';
import type { EndEvent, LadderNote, TurnEvent } from '../port/events.js';
import {
  isInterrupted,
  isSettled,
  type AgentEvent,
  type AgentMessage,
  type Elicitation,
  type Task,
  type TaskState,
} from '../port/types.js';
import { ArtifactReply } from './artifacts.js';
import { AttachmentSet } from './attachments.js';
import { checkIds } from './ids.js';
import { endFacts, outcomeOf } from './end-facts.js';
import { agentText, isAside, isDelta, isPartial, lastAgentAnswer } from './parts.js';
import { UsageLedger } from './usage.js';
import { userMessageOf } from './user-messages.js';

export { ARTIFACT_SEPARATOR } from './artifacts.js';

/**
 * What the turn knows of the agent's task. The ladder owns and feeds it (before the renderer sees
 * an event); the renderer only reads it.
 */
export interface TaskFacts {
  readonly taskId: string | undefined;
  readonly contextId: string | undefined;
  readonly state: TaskState | undefined;
  /** The agent answered with a single message and no task. */
  readonly messageOnly: boolean;
  /** A resumed turn's request: the person's message its task answers, once a snapshot showed it. */
  readonly request?: AgentMessage | undefined;
  /** Why the completed task could not be read back for its reply, when the read failed. */
  readonly replyUnread?: A2AError | undefined;
  /** The task's last generation, while the agent keeps them (A2A 1.1 draft). */
  readonly generation?: number | undefined;
  /** The task's requests for input, when the agent sent any (A2A 1.1 draft). */
  readonly elicitations?: Elicitation[] | undefined;
}

/**
 * Turns one turn's agent events into turn events: the three streaming shapes (artifact chunks,
 * repeated status messages, a single message) normalised into one reply that is emitted as text
 * deltas and, at the end, exactly once in the `end` event.
 *
 * One renderer per turn subscription. It keeps what it has shown (the reply through
 * {@link ArtifactReply}, the preview, the last status, the task it announced); what the task *is*
 * comes from {@link TaskFacts}. `push` and `finish` return the events they make.
 */
export class TurnRenderer {
  private readonly reply: ArtifactReply;
  private readonly attachments: AttachmentSet;
  private readonly usage = new UsageLedger();
  /** The state of the last status event. */
  private shownState: TaskState | undefined;
  private announcedTaskId: string | undefined;
  private requestAnnounced = false;
  private authAnnounced = false;
  private preview: string | undefined;
  /** The message the preview's text came from: its next chunks extend the preview. */
  private previewMessageId: string | undefined;
  private lastAgentText: string | undefined;
  /** The status message of the interruption the task is in (its question, its sign-in request). */
  private asked: AgentMessage | undefined;
  private finalText: string | undefined;
  /** An artifact came (an update, or one a snapshot lists), whatever it held. */
  private artifactsSeen = false;

  /**
   * `limits`: the longest reply (and preview) kept, in characters, the most artifacts, the bytes of
   * files and data kept and the most attachments; past any a protocol error.
   */
  constructor(
    private readonly task: TaskFacts,
    limits: { maxChars?: number; maxArtifacts?: number; maxAttachmentBytes?: number; maxAttachments?: number } = {},
  ) {
    this.reply = new ArtifactReply(limits.maxChars ?? Number.POSITIVE_INFINITY, limits.maxArtifacts);
    this.attachments = new AttachmentSet(
      limits.maxAttachmentBytes ?? Number.POSITIVE_INFINITY,
      limits.maxAttachments ?? Number.POSITIVE_INFINITY,
    );
  }

  /** One agent event (already observed by the task facts) or ladder note, and the events it makes. */
  push(signal: AgentEvent | LadderNote): TurnEvent[] {
    if ('type' in signal) return [signal];
    checkIds(signal);
    const out: TurnEvent[] = [];
    switch (signal.kind) {
      case 'task':
        this.snapshot(signal.task, out);
        break;
      case 'status':
        this.announceTask(out);
        // An aside (a citation, a thought) moves the state but is neither preview nor reply.
        this.status(signal.status.state, isAside(signal.metadata) ? undefined : signal.status.message, isDelta(signal.metadata), out);
        break;
      case 'artifact': {
        this.announceTask(out);
        this.artifactsSeen = true;
        const partial = isPartial(signal.metadata, signal.artifact.metadata);
        const preview = this.reply.chunk(signal.artifact, signal.append, partial, out);
        if (preview) this.extendPreview(preview, out);
        // A partial chunk's parts come again, whole, in the closing chunk.
        if (!partial) this.attachments.scan(signal.artifact.parts, out);
        break;
      }
      case 'message':
        this.message(signal.message, out);
        break;
      case 'alive':
    }
    this.usage.read(signal, out);
    return out;
  }

  /** Nothing to show so far: no artifact text, no status or message text, no file or data part. */
  get nothingShown(): boolean {
    return this.reply.text() === '' && this.finalText === undefined && this.lastAgentText === undefined && this.attachments.empty;
  }

  /**
   * The last text correction, if any, and the `end` event. Throws a protocol error when the
   * agent's events never settled the task (the ladder only finishes settled turns).
   */
  finish(): TurnEvent[] {
    const { state, messageOnly, contextId, taskId } = this.task;
    const outcome = outcomeOf(state, messageOnly);
    if (outcome === undefined) {
      throw new A2AError({
        kind: 'protocol',
        operation: 'turn',
        message: `the agent's events ended with the task ${state ?? 'never created'}, not settled`,
      });
    }
    const out: TurnEvent[] = [];
    const fromArtifacts = this.reply.text();
    const text = fromArtifacts !== '' ? fromArtifacts : (this.finalText ?? this.lastAgentText ?? '');
    // The reply shown is the artifacts' reply already; a status text replaces an empty one.
    if (fromArtifacts === '') this.reply.showInstead(text, out);
    const end: EndEvent = { type: 'end', outcome, text };
    const attachments = this.attachments.list();
    if (attachments.length > 0) end.attachments = [...attachments];
    if (contextId !== undefined) end.contextId = contextId;
    if (taskId !== undefined) end.taskId = taskId;
    const { asked, artifactsSeen } = this;
    endFacts(end, this.task, { asked, artifactsSeen, surfaces: this.attachments.surfaceList(), usage: this.usage.total() });
    out.push(end);
    return out;
  }

  /** A `task` event the first time the turn's task (or a new one) is seen. */
  private announceTask(out: TurnEvent[]): void {
    const { taskId, contextId } = this.task;
    if (!taskId || taskId === this.announcedTaskId) return;
    this.announcedTaskId = taskId;
    out.push(contextId === undefined ? { type: 'task', taskId } : { type: 'task', taskId, contextId });
  }

  /** A `request` event the first time the task facts know the person's message (a resumed turn's). */
  private announceRequest(out: TurnEvent[]): void {
    const request = this.task.request;
    if (request === undefined || this.requestAnnounced) return;
    this.requestAnnounced = true;
    out.push({ type: 'request', ...userMessageOf(request) });
  }

  private snapshot(task: Task, out: TurnEvent[]): void {
    this.announceTask(out);
    this.announceRequest(out);
    this.reply.snapshot(task.artifacts, out);
    if (task.artifacts.length > 0) this.artifactsSeen = true;
    for (const artifact of task.artifacts) if (!isPartial(artifact.metadata)) this.attachments.scan(artifact.parts, out);
    this.lastAgentText ??= lastAgentAnswer(task.history);
    this.status(task.status.state, task.status.message, false, out);
  }

  private status(state: TaskState, message: AgentMessage | undefined, partial: boolean, out: TurnEvent[]): void {
    const previousState = this.shownState;
    const previousPreview = this.preview;
    this.shownState = state;
    this.asked = isInterrupted(state) ? (message ?? (state === previousState ? this.asked : undefined)) : undefined;
    // The sign-in link or the question belongs to the interruption: once the task moves on, it goes.
    if (isInterrupted(previousState) && state !== previousState) this.preview = this.previewMessageId = undefined;
    const text = agentText(message);
    if (text !== undefined) {
      this.preview = this.bounded(this.nextPreview(text, message?.messageId, partial));
      this.lastAgentText = this.preview;
    }
    // The settling message as streamed: its chunks joined when it came in pieces.
    if (isSettled(state)) this.finalText = text === undefined ? undefined : this.preview;
    if (state !== previousState || this.preview !== previousPreview) {
      out.push(this.preview === undefined ? { type: 'status', state } : { type: 'status', state, text: this.preview });
    }
    if (message !== undefined && message.role === 'agent') this.attachments.scan(message.parts, out);
    if (state === 'auth-required' && !this.authAnnounced) {
      this.authAnnounced = true;
      out.push({ type: 'auth-required', ...(text === undefined ? {} : { text }), ...(message ? { message } : {}) });
    } else if (state !== 'auth-required') {
      this.authAnnounced = false;
    }
  }

  /**
   * The preview after one more status text. A flagged partial is a delta. Texts of one message (the
   * same messageId, as gemini-cli and VoltAgent stream them) are its chunks: a text that repeats the
   * text so far is a cumulative snapshot and replaces it, any other extends it. A new message (or one
   * without an id) replaces the preview: progress strings, whole model turns.
   */
  private nextPreview(text: string, messageId: string | undefined, partial: boolean): string {
    if (partial) return (this.preview ?? '') + text;
    const sameMessage = messageId !== undefined && messageId !== '' && messageId === this.previewMessageId && this.preview !== undefined;
    this.previewMessageId = messageId;
    if (!sameMessage) return text;
    return text.startsWith(this.preview!) ? text : this.preview + text;
  }

  /** A partial (delta) chunk: appended to the preview, never to the reply. */
  private extendPreview(chunk: string, out: TurnEvent[]): void {
    this.preview = this.bounded((this.preview ?? '') + chunk);
    out.push({ type: 'status', state: this.shownState ?? 'working', text: this.preview });
  }

  private message(message: AgentMessage, out: TurnEvent[]): void {
    if (message.role !== 'agent') return;
    // A message inside a task: progress, like a status message.
    if (this.task.taskId !== undefined) return this.status(this.shownState ?? 'working', message, false, out);
    // A message-only reply: the whole answer at once, and the turn is done.
    this.finalText = agentText(message) ?? '';
    this.attachments.scan(message.parts, out);
  }

  private bounded(text: string): string {
    this.reply.checkLength(text.length);
    return text;
  }
}
