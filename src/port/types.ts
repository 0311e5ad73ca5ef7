export type { PushTarget } from './push-target.js';
export type { OutgoingData, OutgoingFile, OutgoingMessage, OutgoingPart } from './message-out.js';

/**
 * The domain types the ladder works with. The SDK adapter maps its own types into these, so the
 * ladder, the renderer and the tests never see SDK shapes (v1.0 and v0.3 look the same here).
 */

/** A task's state, lowercase as in A2A v0.3 (v1.0's `TASK_STATE_WORKING` maps to `working`). */
export type TaskState =
  'submitted' | 'working' | 'input-required' | 'auth-required' | 'completed' | 'failed' | 'canceled' | 'rejected' | 'unknown';

/** Who sent a message. */
export type Role = 'user' | 'agent';

/**
 * One part of a message or artifact. Text parts become reply text; file and data parts become
 * attachments (or, for framework records such as ADK tool calls, activity).
 */
export type Part = TextPart | DataPart | FilePart;

/** Plain text. */
export interface TextPart {
  /** Discriminant. */
  kind: 'text';
  /** The text. */
  text: string;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** Structured data: any JSON value, with its media type when the agent named one (v1.0 only). */
export interface DataPart {
  /** Discriminant. */
  kind: 'data';
  /** The JSON value. */
  data: unknown;
  /** Its media type, when the agent named one. */
  mediaType?: string;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/**
 * A file: its bytes (v1.0 `raw`, v0.3 `file.bytes`, decoded once from base64 by the mapping, never
 * copied afterwards) or a URI (v1.0 `url`, v0.3 `file.uri`), with its name and media type.
 */
export interface FilePart {
  /** Discriminant. */
  kind: 'file';
  /** The file's media type, when named. */
  mediaType?: string;
  /** The file's name, when named. */
  name?: string;
  /** Where to fetch the file, when it came by URI. */
  uri?: string;
  /** The file's content, when it came inline. */
  bytes?: Uint8Array;
  /** The part's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** A message of the conversation, the agent's or the user's. */
export interface AgentMessage {
  /** Who sent it. */
  role: Role;
  /** Its content, in order. */
  parts: Part[];
  /** Its id, when it has one. */
  messageId?: string;
  /** The conversation it belongs to, when named. */
  contextId?: string;
  /** The task it belongs to, when named. */
  taskId?: string;
  /** The message's metadata, as sent. */
  metadata?: Record<string, unknown>;
}

/** A task's state and the message that came with it. */
export interface TaskStatus {
  /** The state. */
  state: TaskState;
  /** The agent's status message (progress text, a question, the final answer), when any. */
  message?: AgentMessage;
  /** When the agent recorded this status (ISO 8601, as the agent wrote it), when it said. */
  timestamp?: string;
  /**
   * A2A 1.1 (draft, ADR-002): the agent's requests for input created or changed at this status (a
   * delta, merged by id into the task's set), when the agent sent them.
   */
  elicitations?: Elicitation[];
}

/**
 * A2A 1.1 (draft, ADR-002 and a2aproject/A2A PR #2149, not merged to `dev-1.1`): one of the agent's
 * requests for the person's input. `blocked` holds the task (its state is then input-required);
 * `waiting` lets it go on; `resolved` is answered or withdrawn; `unknown` is a state this client does
 * not know (kept: it fails open).
 */
export interface Elicitation {
  /** Its id within the task: what an answer names in `elicitationIds`. */
  id: string;
  /** Its state. */
  state: 'waiting' | 'blocked' | 'resolved' | 'unknown';
  /** What the agent says of it (the kind of answer it expects, a schema), as sent. */
  metadata?: Record<string, unknown>;
}

/** An output of a task (the reply, a file): parts that may come in chunks. */
export interface Artifact {
  /** Its id within the task; chunks of one artifact share it. */
  artifactId: string;
  /** Its name, when the agent gave one. */
  name?: string;
  /** Its content, in order. */
  parts: Part[];
  /** The artifact's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
}

/** A task as the agent reports it in a snapshot (SendMessage, GetTask, ListTasks). */
export interface Task {
  /** The task's id. */
  id: string;
  /** The conversation it belongs to, when named. */
  contextId?: string;
  /** Its current state. */
  status: TaskStatus;
  /** Its outputs so far. */
  artifacts: Artifact[];
  /** The messages of the task, when the agent sent them. */
  history?: AgentMessage[];
  /** The task's metadata, as the agent sent it. */
  metadata?: Record<string, unknown>;
  /** A2A 1.1 (draft): the task's generation (1 at creation, +1 per change), when the agent said; 0 means it does not keep one. */
  generation?: number;
  /** A2A 1.1 (draft, ADR-002): the task's requests for input, the whole set, when the agent sent them. */
  elicitations?: Elicitation[];
}

/** What an agent sends: a task snapshot, a message, a status update or an artifact chunk. */
export type AgentEvent =
  | { kind: 'task'; task: Task }
  | { kind: 'message'; message: AgentMessage }
  /**
   * Only a sign of life on a stream: an SSE comment (`: ping`) or bytes that completed no event yet.
   * It keeps the idle and first-event clocks from running out and carries nothing else.
   */
  | { kind: 'alive' }
  | {
      kind: 'status';
      /** '' when the agent named no task: the turn's own task. */
      taskId: string;
      contextId?: string;
      status: TaskStatus;
      metadata?: Record<string, unknown>;
      /** A2A 1.1 (draft): the task's generation after this change, when the agent said. */
      generation?: number;
    }
  | {
      kind: 'artifact';
      /** '' when the agent named no task: the turn's own task. */
      taskId: string;
      contextId?: string;
      artifact: Artifact;
      /** Append the parts to the artifact with this id; absent/false on a known id replaces it. */
      append: boolean;
      /** This chunk closes the artifact. */
      lastChunk: boolean;
      metadata?: Record<string, unknown>;
      /** A2A 1.1 (draft): the task's generation after this change, when the agent said. */
      generation?: number;
    };

/** What a blocking send answers: a task (maybe still working) or a single message. */
export type SendResult = Extract<AgentEvent, { kind: 'task' } | { kind: 'message' }>;

const TERMINAL: ReadonlySet<TaskState> = new Set(['completed', 'failed', 'canceled', 'rejected']);
const INTERRUPTED: ReadonlySet<TaskState> = new Set(['input-required', 'auth-required']);

/** COMPLETED, FAILED, CANCELED or REJECTED: the task will not change again. */
export function isTerminal(state: TaskState | undefined): boolean {
  return state !== undefined && TERMINAL.has(state);
}

/** INPUT_REQUIRED or AUTH_REQUIRED: the task waits for the user. */
export function isInterrupted(state: TaskState | undefined): boolean {
  return state !== undefined && INTERRUPTED.has(state);
}

/**
 * Terminal or INPUT_REQUIRED: a task stream has nothing more to say in this state (the agent waits for
 * the next message or is done). AUTH_REQUIRED is not one: the agent may resume once the user signs in.
 */
export function endsStream(state: TaskState | undefined): boolean {
  return isTerminal(state) || state === 'input-required';
}

/** Terminal or interrupted: the turn can end here, and nothing needs cancelling. */
export function isSettled(state: TaskState | undefined): boolean {
  return isTerminal(state) || isInterrupted(state);
}
