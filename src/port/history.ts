import type { A2AError } from '../errors.js';
import type { Attachment, TurnOutcome, UserMessage } from './events.js';
import type { SurfaceView } from './a2ui.js';
import type { TaskState } from './types.js';
import type { Usage } from './usage.js';

/**
 * One exchange of a thread's past, rebuilt from one of the agent's tasks: what the person said and
 * the reply as a live turn would have ended with it (the task's snapshot through the same renderer).
 */
export interface HistoryExchange {
  /** The agent's task. */
  taskId: string;
  /**
   * The person's messages in the task, oldest first: usually one; a question the agent asked in the
   * task adds the answer after it. Empty when the agent keeps no history of its tasks (or not this
   * far back): the exchange then has its reply alone.
   */
  user: UserMessage[];
  /** The reply: the `end` event's text of a settled task; of a running one, the reply so far. */
  reply: string;
  /** The reply's files and data parts, when it had any. */
  attachments?: Attachment[];
  /** A2UI: the surfaces the task's snapshot draws, each as its messages left it (checked as a live turn's), when it has any. */
  surfaces?: SurfaceView[];
  /** The task's state when it was listed. */
  state: TaskState;
  /** How the task ended (as a turn's `end` says it); absent while it runs (a `resume` follows it). */
  outcome?: TurnOutcome;
  /** When the agent recorded the task's status (ISO 8601), when it said. */
  timestamp?: string;
  /**
   * The task's usage as the agent reported it (read as a turn reads it, over the task's whole history: every
   * exchange of the task), when it reported any.
   */
  usage?: Usage;
  /**
   * Set when the reply cannot be shown: it passes the policy's bounds on a reply (characters,
   * artifacts, attachments), as the live turn would have failed; `reply` is then empty.
   */
  error?: A2AError;
}

/** One page of a thread's history: its newest exchanges before a point, oldest first. */
export interface HistoryPage {
  /** The thread's contextId the history was listed by. */
  contextId: string;
  /** The exchanges, oldest first (as a chat shows them, the newest last). */
  exchanges: HistoryExchange[];
  /**
   * Where the exchanges before these are: hand it back as `before` for the page of earlier ones.
   * Absent when the agent has none (or said nothing usable of where they are).
   */
  before?: string;
}
