import { A2AError } from '../errors.js';
import type { EndEvent, LadderNote, TurnEvent, TurnOutcome } from '../port/events.js';
import { isInterrupted, isSettled, type AgentEvent, type Artifact, type AgentMessage, type Task, type TaskState } from '../port/types.js';
import { agentText, isPartial, lastAgentAnswer, textOf } from './parts.js';

/** Text of separate artifacts is joined with a blank line; parts within one artifact join with nothing. */
export const ARTIFACT_SEPARATOR = '\n\n';

interface ArtifactText {
  text: string;
  /** An ADK/kagent partial (delta) artifact: shown as preview, never part of the reply. */
  partial: boolean;
}

/** Where the renderer sends what it emits. */
export type Emit = (event: TurnEvent) => void;

/**
 * Turns one turn's agent events into turn events: the three streaming shapes (artifact chunks,
 * repeated status messages, a single message) normalised into one reply that is emitted as text
 * deltas and, at the end, exactly once in the `end` event.
 *
 * One renderer per turn subscription. It keeps the artifacts' text and the reply emitted so far;
 * an append to the last artifact is emitted in O(1), anything else (a replace, a snapshot) by
 * comparing the recomputed reply with the emitted one, so a replayed snapshot emits nothing new.
 */
export class TurnRenderer {
  private readonly artifacts = new Map<string, ArtifactText>();
  /**
   * The length of the reply shown so far (the fold of every text event). The text itself is not
   * kept: it always equals the artifacts' reply, so one copy of a long reply is enough.
   */
  private replyLength = 0;
  /** The artifact whose text ends `reply`, when there is one. */
  private tail: ArtifactText | undefined;
  private last: ArtifactText | undefined;
  private state: TaskState | undefined;
  private preview: string | undefined;
  private lastAgentText: string | undefined;
  private finalText: string | undefined;
  private messageOnly = false;
  private authAnnounced = false;
  private taskId: string | undefined;
  private contextId: string | undefined;

  constructor(
    private readonly emit: Emit,
    start: { contextId?: string; taskId?: string } = {},
    /** The longest reply (and preview) kept, in characters: a hostile agent cannot grow memory past it. */
    private readonly maxChars = Number.POSITIVE_INFINITY,
  ) {
    this.contextId = start.contextId;
  }

  /** The task id seen so far, if any. */
  get currentTaskId(): string | undefined {
    return this.taskId;
  }

  /** The latest task state seen so far, if any. */
  get currentState(): TaskState | undefined {
    return this.state;
  }

  /** Feeds one agent event or ladder note. */
  push(signal: AgentEvent | LadderNote): void {
    if ('type' in signal) return this.emit(signal);
    switch (signal.kind) {
      case 'task':
        return this.snapshot(signal.task);
      case 'status':
        this.identify(signal.taskId, signal.contextId);
        return this.status(signal.status.state, signal.status.message, isPartial(signal.metadata));
      case 'artifact':
        this.identify(signal.taskId, signal.contextId);
        return this.artifact(signal.artifact, signal.append, isPartial(signal.metadata, signal.artifact.metadata));
      case 'message':
        return this.message(signal.message);
    }
  }

  /**
   * Ends the turn: emits the last text correction, if any, and the `end` event. Throws a protocol
   * error when the agent's events never settled the task (the ladder only finishes settled turns).
   */
  finish(): void {
    const outcome = outcomeOf(this.state, this.messageOnly);
    if (outcome === undefined) {
      throw new A2AError({
        kind: 'protocol',
        operation: 'turn',
        message: `the agent's events ended with the task ${this.state ?? 'never created'}, not settled`,
      });
    }
    const fromArtifacts = this.artifactReply();
    const text = fromArtifacts !== '' ? fromArtifacts : (this.finalText ?? this.lastAgentText ?? '');
    // The reply shown is the artifacts' reply already; a status text replaces an empty one.
    if (fromArtifacts === '' && text !== '') this.extend(text);
    const end: EndEvent = { type: 'end', outcome, text };
    if (this.contextId !== undefined) end.contextId = this.contextId;
    if (this.taskId !== undefined) end.taskId = this.taskId;
    this.emit(end);
  }

  private identify(taskId: string, contextId: string | undefined): void {
    if (contextId) this.contextId = contextId;
    if (!taskId || taskId === this.taskId) return;
    this.taskId = taskId;
    this.emit(this.contextId === undefined ? { type: 'task', taskId } : { type: 'task', taskId, contextId: this.contextId });
  }

  private snapshot(task: Task): void {
    this.identify(task.id, task.contextId);
    const before = this.artifactReply();
    this.artifacts.clear();
    this.last = undefined;
    for (const artifact of task.artifacts) {
      const entry = { text: textOf(artifact.parts), partial: isPartial(artifact.metadata) };
      this.artifacts.set(artifact.artifactId, entry);
      this.last = entry;
    }
    this.lastAgentText ??= lastAgentAnswer(task.history);
    this.showChange(before);
    this.status(task.status.state, task.status.message, false);
  }

  private status(state: TaskState, message: AgentMessage | undefined, partial: boolean): void {
    const previousState = this.state;
    const previousPreview = this.preview;
    this.state = state;
    // The sign-in link or the question belongs to the interruption: once the task moves on, it goes.
    if (isInterrupted(previousState) && state !== previousState) this.preview = undefined;
    const text = agentText(message);
    if (text !== undefined) {
      this.preview = this.bounded(partial ? (this.preview ?? '') + text : text);
      this.lastAgentText = this.preview;
    }
    if (isSettled(state)) this.finalText = text;
    if (state !== previousState || this.preview !== previousPreview) {
      this.emit(this.preview === undefined ? { type: 'status', state } : { type: 'status', state, text: this.preview });
    }
    if (state === 'auth-required' && !this.authAnnounced) {
      this.authAnnounced = true;
      this.emit({ type: 'auth-required', ...(text === undefined ? {} : { text }), ...(message ? { message } : {}) });
    } else if (state !== 'auth-required') {
      this.authAnnounced = false;
    }
  }

  private artifact(artifact: Artifact, append: boolean, partial: boolean): void {
    const chunk = textOf(artifact.parts);
    const known = this.artifacts.get(artifact.artifactId);
    if (partial) {
      // Deltas of text that a non-partial event repeats whole: a preview, whatever `append` says.
      const before = known && !known.partial ? this.artifactReply() : undefined;
      const entry = { text: '', partial: true };
      this.artifacts.set(artifact.artifactId, entry);
      // A new id goes last in the map: the fast paths must know an empty artifact is no longer last.
      if (known === undefined || known === this.last) this.last = entry;
      if (before !== undefined) this.showChange(before);
      if (chunk !== '') {
        this.preview = this.bounded((this.preview ?? '') + chunk);
        this.emit({ type: 'status', state: this.state ?? 'working', text: this.preview });
      }
      return;
    }
    if (known === undefined) {
      const entry = { text: chunk, partial: false };
      this.artifacts.set(artifact.artifactId, entry);
      this.last = entry;
      if (chunk === '') return;
      // A new last artifact extends the reply, after a separator when text precedes it.
      this.tail = entry;
      return this.extend(this.replyLength === 0 ? chunk : ARTIFACT_SEPARATOR + chunk);
    }
    const wasPartial = known.partial;
    known.partial = false;
    if (append && !wasPartial) {
      if (chunk === '') return;
      if (known === this.tail) {
        known.text += chunk;
        return this.extend(chunk);
      }
      if (known.text === '' && known === this.last) {
        known.text = chunk;
        this.tail = known;
        return this.extend(this.replyLength === 0 ? chunk : ARTIFACT_SEPARATOR + chunk);
      }
    }
    const before = this.artifactReply();
    known.text = append ? known.text + chunk : chunk;
    this.showChange(before);
  }

  private message(message: AgentMessage): void {
    if (message.role !== 'agent') return;
    if (message.contextId) this.contextId = message.contextId;
    const text = agentText(message);
    if (this.taskId !== undefined) {
      // A message inside a task: progress, like a status message.
      return this.status(this.state ?? 'working', message, false);
    }
    // A message-only reply: the whole answer at once, and the turn is done.
    this.messageOnly = true;
    this.finalText = text ?? '';
  }

  /** The reply as the artifacts give it: non-partial, non-empty artifact texts in arrival order. */
  private artifactReply(): string {
    let reply = '';
    for (const entry of this.artifacts.values()) {
      if (entry.partial || entry.text === '') continue;
      reply = reply === '' ? entry.text : reply + ARTIFACT_SEPARATOR + entry.text;
    }
    return reply;
  }

  private extend(delta: string): void {
    this.replyLength = this.boundedLength(this.replyLength + delta.length);
    this.emit({ type: 'text', text: delta, replace: false });
  }

  /** After the artifacts changed from giving `before`: emits nothing, an append, or a replace. */
  private showChange(before: string): void {
    this.tail = this.lastNonEmpty();
    const next = this.artifactReply();
    if (next === before) return;
    if (next.startsWith(before)) return this.extend(next.slice(before.length));
    this.replyLength = this.boundedLength(next.length);
    this.emit({ type: 'text', text: next, replace: true });
  }

  /** Refuses text past the size bound with a protocol error (the turn then ends, and the task is cancelled). */
  private bounded(text: string): string {
    this.boundedLength(text.length);
    return text;
  }

  private boundedLength(length: number): number {
    if (length > this.maxChars) {
      throw new A2AError({ kind: 'protocol', operation: 'turn', message: `the agent's reply is longer than ${this.maxChars} characters` });
    }
    return length;
  }

  private lastNonEmpty(): ArtifactText | undefined {
    let found: ArtifactText | undefined;
    for (const entry of this.artifacts.values()) if (!entry.partial && entry.text !== '') found = entry;
    return found;
  }
}

function outcomeOf(state: TaskState | undefined, messageOnly: boolean): TurnOutcome | undefined {
  switch (state) {
    case 'completed':
    case 'input-required':
    case 'auth-required':
    case 'failed':
    case 'rejected':
    case 'canceled':
      return state;
    default:
      return messageOnly ? 'completed' : undefined;
  }
}
