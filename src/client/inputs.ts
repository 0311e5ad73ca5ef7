/**
 * What a thread's calls take: a turn's message, a resume's task, message or position, a history page,
 * a cancel (`A2AClient`'s `turn`, `resume`, `history` and `cancel`), and what leaving a turn does.
 */
import type { ReplyPosition } from '../render/position.js';
import type { OutgoingFile, OutgoingMessage } from '../port/types.js';

/** One message of one chat thread to one agent. */
export interface TurnInput extends OutgoingMessage {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle in the gateway, e.g. `travel`: part of the contextId derivation. */
  handle: string;
  /** The conversation key, e.g. `slack:T1:C2:1700000000.000100`. */
  thread: string;
  /**
   * Files to send (bytes or a URI, each with its media type): refused with an `input` error before
   * the message goes when the card does not take the media type (`defaultInputModes`, the skills'
   * `inputModes`) or when all parts pass the policy's `maxAttachmentBytes`.
   */
  files?: readonly OutgoingFile[];
  /** A contextId to use instead of deriving one (browser apps whose backend derives it). */
  contextId?: string;
  /**
   * A task to continue (one the agent left input-required or auth-required), instead of the one this
   * process remembers for the thread, if any. It is checked first (one `GetTask`): another thread's
   * task is a `foreign-task` error and nothing is sent.
   */
  taskId?: string;
  /**
   * What leaving the turn before its end (unsubscribing) does to the agent's task: `cancel` (the
   * default) sends CancelTask; `detach` stops reading and leaves the task running at the agent, for
   * a later `resume` (a gateway whose browser may reconnect through any replica). A deadline or an
   * error still cancels, as in any turn.
   */
  onLeave?: LeaveMode;
  /**
   * The message's id (at most 1,024 characters, no control character); a fresh UUID otherwise. The
   * turn's `start` event names it either way. A caller that must deliver the message once keeps it
   * until the turn's `task` event: if the process dies before, `resume({ …, messageId })` asks the
   * thread whether the agent got it.
   */
  messageId?: string;
  /**
   * Extension URIs this turn activates on each of its calls (send or stream, resubscribe, GetTask,
   * CancelTask, ListTasks), besides the agent's from the `extensions` option. A card that marks an
   * extension `required` which neither activates fails the turn with an `input` error naming it,
   * before the message is sent.
   */
  extensions?: readonly string[];
  /**
   * The agent's surface this message acts on, as `surfaceAction` names it: the turn refuses (an
   * `input` error, nothing sent) when it goes to another agent than the one that drew the surface, so
   * an action and its data model reach only that agent.
   */
  actsOn?: SurfaceOrigin;
}

/** The surface an action is on and the agent that drew it (`SurfaceView.agent`). */
export interface SurfaceOrigin {
  /** The surface's id. */
  surfaceId: string;
  /** The agent that drew it: its card URL without the query. */
  agent: string;
}

/**
 * A thread's reply in flight to follow (after a restart, on another replica): no message is sent.
 *
 * Who may see what: a task reached by `taskId` or `from` on a thread is shown only when it carries
 * the thread's contextId (derived, or given as `contextId`); another's ends the resume with a
 * `foreign-task` error, nothing of it shown and nothing cancelled. Without `handle` and `thread` the
 * caller vouches for the task: it is followed unchecked (unless `contextId` is given) and no thread
 * remembers it.
 */
export interface ResumeInput {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle in the gateway: part of the contextId derivation. Given with `thread`, or neither. */
  handle?: string;
  /** The conversation key. Given with `handle`; without both, `taskId` or `from` is required. */
  thread?: string;
  /**
   * The task to follow, when known (any protocol version). Without it (and without `from` and
   * `messageId`) the thread's newest unfinished task is looked for with `ListTasks` by the thread's
   * contextId (v1.0 agents only).
   */
  taskId?: string;
  /**
   * Where the caller's copy of the reply stands (a gateway's SSE `Last-Event-ID`, parsed with
   * `parsePosition`): that task is followed, and its `text` events carry only the rest of the reply.
   */
  from?: ReplyPosition;
  /**
   * A message of the thread whose turn was cut short before the agent named its task (the process
   * died): the task that carries it is found with `ListTasks` (with history; v1.0 agents) and
   * followed to its end; when the agent has none, the resume ends with outcome `not-received`, and the
   * message may be sent again, with the same `messageId`; when the thread has more tasks since then
   * than the lookup lists, it ends with outcome `unknown` (the message stays pending: do not send it
   * again; ask later). `not-received` comes only once the policy's `notReceivedAfterMs` has passed
   * since the message was sent (`sentAt`, else the resume's start). Not with `taskId` or `from`.
   */
  messageId?: string;
  /**
   * When the message `messageId` names was first sent (`Date.now()` then; or when the process that
   * sent it died, if that is all the caller knows): the lookup lists only the thread's tasks changed
   * since then (less the policy's `clockSkewMs`, for the agent's clock), and `not-received` waits for the grace
   * to pass from then, not from the resume's start.
   */
  sentAt?: number;
  /** A contextId to use instead of deriving one (as in {@link TurnInput}). */
  contextId?: string;
  /** What leaving the resumed turn does to its task (as in {@link TurnInput}); default `cancel`. */
  onLeave?: LeaveMode;
  /** Extension URIs the resumed turn's calls activate (as in {@link TurnInput}). */
  extensions?: readonly string[];
}

/**
 * A page of a thread's past to show (a chat opened after a restart, a reload, on another replica):
 * the newest `limit` exchanges, or those before `before` ("load earlier"), from the agent's tasks.
 */
export interface HistoryInput {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle in the gateway: part of the contextId derivation. */
  handle: string;
  /** The conversation key. */
  thread: string;
  /** A contextId to use instead of deriving one (as in {@link TurnInput}). */
  contextId?: string;
  /** The newest exchanges wanted, 1–100. Default 20. */
  limit?: number;
  /** The `before` of the page shown last: the exchanges before those. Without it, the newest. */
  before?: string;
  /** The bytes of the page's exchanges at most (see `threadHistory`). Default 8 MiB. */
  maxBytes?: number;
  /** Extension URIs the history's calls activate (as in {@link TurnInput}). */
  extensions?: readonly string[];
}

/**
 * A task to cancel by its id (a Stop that reaches another replica than the one streaming the reply).
 * On a thread (`handle` and `thread`, or `contextId`), the task must be the thread's: another's is a
 * `foreign-task` error and nothing is cancelled. Without them the caller vouches for the task.
 */
export interface CancelInput {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The task to cancel. */
  taskId: string;
  /** The agent's handle in the gateway. Given with `thread`, or neither. */
  handle?: string;
  /** The conversation key. Given with `handle`. */
  thread?: string;
  /** A contextId the task must carry, instead of the thread's derived one. */
  contextId?: string;
  /** Extension URIs the calls activate (as in {@link TurnInput}). */
  extensions?: readonly string[];
}

/** What leaving a turn before its end does to the agent's task: send CancelTask, or hand the task over. */
export type LeaveMode = 'cancel' | 'detach';
