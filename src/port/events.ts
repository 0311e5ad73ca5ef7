import type { A2AError } from '../errors.js';
import type { AgentMessage, TaskState } from './types.js';

/** How a turn ended, as the agent decided it. Agent failures are outcomes, not errors. */
/**
 * How a turn ended: the agent's task state at its end, or `none` for a resume that found nothing
 * unfinished to follow (no task was read).
 */
export type TurnOutcome = 'completed' | 'input-required' | 'auth-required' | 'failed' | 'rejected' | 'canceled' | 'none';

/** Emitted first, always, before any I/O. */
export interface StartEvent {
  type: 'start';
  contextId?: string;
  /** The interrupted task this turn continues, if any. */
  taskId?: string;
}

/** The agent created (or continued) a task: from here on the turn can reconnect and cancel. */
export interface TaskEvent {
  type: 'task';
  taskId: string;
  contextId?: string;
}

/** The task's state or its progress text changed. `text` is the preview: it replaces the previous one. */
export interface StatusEvent {
  type: 'status';
  state: TaskState;
  text?: string;
}

/**
 * Reply text for live rendering. `replace: false` appends `text` to the reply so far;
 * `replace: true` replaces the whole reply with `text`. Folding these gives the `end` event's text.
 */
export interface TextEvent {
  type: 'text';
  text: string;
  replace: boolean;
}

/**
 * A file the agent sent: its bytes (the same `Uint8Array` the mapping decoded, never copied) or a
 * URI to fetch it from, with its name, media type and size (the byte count, when the bytes came).
 */
export interface FileAttachment {
  kind: 'file';
  name?: string;
  mediaType?: string;
  size?: number;
  bytes?: Uint8Array;
  uri?: string;
}

/** Structured data the agent sent (a data part): the JSON value and its media type when named. */
export interface DataAttachment {
  kind: 'data';
  data: unknown;
  mediaType?: string;
}

/** A file or data part of the agent's answer. */
export type Attachment = FileAttachment | DataAttachment;

/**
 * One file or data part of the answer, emitted once per part however often the agent repeats it
 * (chunks, replaces, snapshots). The `end` event lists them all again.
 */
export interface AttachmentEvent {
  type: 'attachment';
  attachment: Attachment;
}

/**
 * A framework's internal record (ADK's `adk_type` function_call / function_response data parts,
 * kagent's typed data parts): what the agent is doing, for a display, never part of the reply.
 */
export interface ActivityEvent {
  type: 'activity';
  /** The record's type, e.g. `function_call`, `function_response`. */
  kind: string;
  /** The tool's name, when the record names one. */
  name?: string;
  data: unknown;
}

/** The agent needs the user to sign in out of band; the turn keeps listening (under the auth-wait bound). */
export interface AuthRequiredEvent {
  type: 'auth-required';
  /** The agent's message text, e.g. a sign-in link. */
  text?: string;
  message?: AgentMessage;
}

/** The stream broke after the task was known; the ladder resubscribes after `delayMs`. */
export interface ReconnectingEvent {
  type: 'reconnecting';
  /** 1 for the first resubscribe after a break. */
  attempt: number;
  delayMs: number;
  cause: A2AError;
}

/** The ladder now polls `GetTask` until the task settles. */
export interface PollingEvent {
  type: 'polling';
  /**
   * `resubscribe-failed`: resubscribing after a break failed for good (refused, or out of attempts
   * or time; `cause` is the last error); `send-returned-early`: a blocking send answered before the
   * task settled.
   */
  reason: 'resubscribe-failed' | 'send-returned-early';
  cause?: A2AError;
}

/** The agent refused the streaming send before any event; the ladder sends once, blocking. */
export interface FallbackEvent {
  type: 'fallback';
  from: 'stream';
  to: 'send';
  cause: A2AError;
}

/** A follow-up named a task the agent no longer has (gone, or finished): the message is sent once more with the contextId only. */
export interface TaskGoneEvent {
  type: 'task-gone';
  taskId: string;
  cause: A2AError;
}

/**
 * The agent refused the contextId the turn sent (servers that accept only contextIds they issued:
 * -32602 naming it) before any event: the message is sent once more without one, and the thread
 * adopts the contextId the agent gives it. Such an agent keeps a thread only within a process.
 */
export interface ContextRefusedEvent {
  type: 'context-refused';
  contextId: string;
  cause: A2AError;
}

/**
 * A resubscription did not open with a task snapshot (the Python a2a-sdk only relays live events),
 * so events sent during the break may be missing: before the end, one `GetTask` brings the task's
 * artifacts, which are the truth, and the reply is corrected from them.
 */
export interface ReconcileEvent {
  type: 'reconcile';
  taskId: string;
  reason: 'resubscribed-without-snapshot';
}

/**
 * The agent answered with another contextId than the one sent (A2A forbids it; some agents do it).
 * The client adopts the agent's id for the thread's next turns. Emitted by the client facade.
 */
export interface ContextAdoptedEvent {
  type: 'context-adopted';
  sent: string;
  adopted: string;
}

/** The last event of every turn that did not error: the outcome and the final reply text, exactly once. */
export interface EndEvent {
  type: 'end';
  outcome: TurnOutcome;
  text: string;
  /** The answer's files and data parts (every `attachment` event's), when it had any. */
  attachments?: Attachment[];
  contextId?: string;
  taskId?: string;
}

/** Everything a turn emits. `start` comes first, `end` last; the error channel means "could not learn what the agent did". */
export type TurnEvent =
  | StartEvent
  | TaskEvent
  | StatusEvent
  | TextEvent
  | AttachmentEvent
  | ActivityEvent
  | AuthRequiredEvent
  | ReconnectingEvent
  | PollingEvent
  | FallbackEvent
  | TaskGoneEvent
  | ContextRefusedEvent
  | ReconcileEvent
  | ContextAdoptedEvent
  | EndEvent;

/** The ladder's own notes, passed through the renderer unchanged. */
export type LadderNote = ReconnectingEvent | PollingEvent | FallbackEvent | TaskGoneEvent | ContextRefusedEvent | ReconcileEvent;

/** The opt-in error event of {@link catchTurnError}: the turn failed before the agent's outcome was known. */
export interface TurnErrorEvent {
  type: 'error';
  error: A2AError;
}
