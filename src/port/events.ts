import type { A2AError } from '../errors.js';
import type { SurfaceEvent, SurfaceRefusedEvent, SurfaceView } from './a2ui.js';
import type { Interrupt } from './interrupt.js';
import type { LadderNote } from './notes.js';
import type { AgentMessage, TaskState } from './types.js';
import type { Usage, UsageEvent } from './usage.js';

export type * from './notes.js';
export type { Interrupt } from './interrupt.js';
export type { SurfaceEvent, SurfaceRefusedEvent } from './a2ui.js';
export type { Usage, UsageCost, UsageEvent, UsageJson, UsageScope } from './usage.js';

/**
 * How a turn ended: the agent's task state at its end; `none` for a resume that found nothing
 * unfinished to follow (no task was read); `not-received` for a resume by `messageId` that found no
 * task carrying the message once the agent had time to take it (it never got it: it may be sent
 * again); `unknown` for a resume by `messageId` that cannot tell within its bounds (more tasks on the
 * thread since the message was sent than it lists): the message stays pending, never sent again;
 * ask again later. Agent failures are outcomes, not errors.
 */
export type TurnOutcome =
  'completed' | 'input-required' | 'auth-required' | 'failed' | 'rejected' | 'canceled' | 'none' | 'not-received' | 'unknown';

/** Emitted first, always, before any I/O (after the `queued` events of a turn the client's `agentLimits` held back). */
export interface StartEvent {
  /** Discriminant. */
  type: 'start';
  /** The contextId the turn sends, when it has one. */
  contextId?: string;
  /** The interrupted task this turn continues, if any. */
  taskId?: string;
  /**
   * The `messageId` of the message the turn sends (the caller's, or a fresh one): kept by a caller
   * that must deliver the message once, to ask the thread for it after a crash (`resume` by
   * `messageId`). Absent on a resume.
   */
  messageId?: string;
}

/** The agent created (or continued) a task: from here on the turn can reconnect and cancel. */
export interface TaskEvent {
  /** Discriminant. */
  type: 'task';
  /** The agent's task id. */
  taskId: string;
  /** The task's contextId, when the agent named it. */
  contextId?: string;
}

/**
 * A message the person sent, as the agent kept it in a task's history: its text (text parts joined),
 * its files and data parts, its id when it had one.
 */
export interface UserMessage {
  /** The message's text parts, joined. */
  text: string;
  /** Its files and data parts, in order; absent when it had none. */
  attachments?: Attachment[];
  /** The message's id, when the agent kept it. */
  messageId?: string;
}

/**
 * A resumed turn's task was started by this message of the person's (the newest in the task's
 * history): emitted once, after the `task` event, so a page reloaded mid-reply shows what it answers.
 * Only a resume emits it, and only when the agent's snapshot of the task carries its history.
 */
export interface RequestEvent extends UserMessage {
  /** Discriminant. */
  type: 'request';
}

/** The task's state or its progress text changed. `text` is the preview: it replaces the previous one. */
export interface StatusEvent {
  /** Discriminant. */
  type: 'status';
  /** The task's state. */
  state: TaskState;
  /** The agent's progress text (its status message), when it sent one. */
  text?: string;
}

/**
 * Reply text for live rendering. `replace: false` appends `text` to the reply so far;
 * `replace: true` replaces the whole reply with `text`. Folding these gives the `end` event's text.
 */
export interface TextEvent {
  /** Discriminant. */
  type: 'text';
  /** Text to append, or the whole reply so far when `replace` is true. */
  text: string;
  /** True: `text` replaces the reply so far; false: it is appended. */
  replace: boolean;
}

/**
 * A file the agent sent (or the person's, in a {@link UserMessage}): its bytes (the same `Uint8Array`
 * the mapping decoded, never copied) or a URI to fetch it from, with its name, media type and size
 * (the byte count, when the bytes came).
 */
export interface FileAttachment {
  /** Discriminant. */
  kind: 'file';
  /** The file's name, when the agent gave one. */
  name?: string;
  /** The file's media type, when the agent gave one. */
  mediaType?: string;
  /** The length of `bytes`; absent for a file sent by URI. */
  size?: number;
  /** The file's content, when the agent sent it inline. */
  bytes?: Uint8Array;
  /** Where to fetch the file, when the agent sent a URI instead of bytes. */
  uri?: string;
}

/** Structured data the agent sent (a data part): the JSON value and its media type when named. */
export interface DataAttachment {
  /** Discriminant. */
  kind: 'data';
  /** The JSON value. */
  data: unknown;
  /** Its media type, when the agent named one. */
  mediaType?: string;
}

/** A file or data part of the agent's answer. */
export type Attachment = FileAttachment | DataAttachment;

/**
 * One file or data part of the answer, emitted once per part however often the agent repeats it
 * (chunks, replaces, snapshots). The `end` event lists them all again.
 */
export interface AttachmentEvent {
  /** Discriminant. */
  type: 'attachment';
  /** The file or data part. */
  attachment: Attachment;
}

/**
 * A framework's internal record (ADK's `adk_type` function_call / function_response data parts,
 * kagent's typed data parts): what the agent is doing, for a display, never part of the reply.
 */
export interface ActivityEvent {
  /** Discriminant. */
  type: 'activity';
  /** The record's type, e.g. `function_call`, `function_response`. */
  kind: string;
  /** The tool's name, when the record names one. */
  name?: string;
  /** The record's data, as the agent sent it. */
  data: unknown;
}

/** The agent needs the user to sign in out of band; the turn keeps listening (under the auth-wait bound). */
export interface AuthRequiredEvent {
  /** Discriminant. */
  type: 'auth-required';
  /** The agent's message text, e.g. a sign-in link. */
  text?: string;
  /** The agent's whole status message, when it sent one. */
  message?: AgentMessage;
}

/**
 * Why a `completed` turn ended with no reply (no text, no file or data part) when the agent may have
 * sent one: `unread`, the task was read back for its reply (one `GetTask`, as every completed turn
 * that showed nothing is) and that read failed, so whatever the agent sent after the stream was left
 * is unknown (`cause` is the failure); `artifacts-empty`, the agent sent artifacts (or the task read
 * back lists them) and none of them holds any reply: no text, file or data part, or only partial
 * chunks whose whole never came. Absent from every other end.
 */
export interface ReplyMissing {
  /** What is known of the missing reply. */
  reason: 'unread' | 'artifacts-empty';
  /** For `unread`: why the task could not be read back. */
  cause?: A2AError;
}

/** The last event of every turn that did not error: the outcome and the final reply text, exactly once. */
export interface EndEvent {
  /** Discriminant. */
  type: 'end';
  /** How the turn ended. */
  outcome: TurnOutcome;
  /** The final reply: the `text` events folded. */
  text: string;
  /** The answer's files and data parts (every `attachment` event's), when it had any. */
  attachments?: Attachment[];
  /** A2UI: the surfaces the turn drew, as its messages left them (each to replay), when it drew any. */
  surfaces?: SurfaceView[];
  /** The conversation's contextId, when known. */
  contextId?: string;
  /** The turn's task, when it had one (a message-only answer has none). */
  taskId?: string;
  /** The message a resume by `messageId` looked for, on its `not-received` or `unknown` end. */
  messageId?: string;
  /**
   * Set only on a `completed` end whose reply is empty although the agent may have sent one (see
   * {@link ReplyMissing}): the outcome is the agent's, but the turn did not get its answer. Absent when
   * the reply was read, or when the agent completed with nothing and said so when read back.
   */
  replyMissing?: ReplyMissing;
  /**
   * A2A 1.1 (draft): the task's generation at the end, when the agent keeps them: what an answer to the
   * question the turn ended on names as `ifGenerationMatch`, so a second answer is refused.
   */
  generation?: number;
  /**
   * What an `input-required` or `auth-required` end waits for, as a value to answer (`answerTo`):
   * the question, its task, the agent's requests for input and the generation. Absent from every other end.
   */
  interrupt?: Interrupt;
  /**
   * The turn's usage as the agent reported it (the last `usage` event's total): the task's own total
   * when the agent gave one, else the sum of its reports. Absent when the agent reported nothing.
   */
  usage?: Usage;
}

/** Everything a turn emits. `start` comes first, `end` last; the error channel means "could not learn what the agent did". */
export type TurnEvent =
  | StartEvent
  | TaskEvent
  | RequestEvent
  | StatusEvent
  | TextEvent
  | AttachmentEvent
  | ActivityEvent
  | AuthRequiredEvent
  | SurfaceEvent
  | SurfaceRefusedEvent
  | UsageEvent
  | LadderNote
  | EndEvent;

/** The opt-in error event of {@link catchTurnError}: the turn failed before the agent's outcome was known. */
export interface TurnErrorEvent {
  /** Discriminant. */
  type: 'error';
  /** The turn's error. */
  error: A2AError;
}
