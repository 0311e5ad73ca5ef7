import type { A2AError } from '../errors.js';

/**
 * The ladder's own notes among a turn's events: what it did on the way (reconnect, poll, fall back,
 * send once more), passed through the renderer unchanged.
 */

/** The stream broke after the task was known; the ladder resubscribes after `delayMs`. */
export interface ReconnectingEvent {
  /** Discriminant. */
  type: 'reconnecting';
  /** 1 for the first resubscribe after a break. */
  attempt: number;
  /** The wait before resubscribing, in milliseconds. */
  delayMs: number;
  /** The error that broke the stream. */
  cause: A2AError;
}

/** The ladder now polls `GetTask` until the task settles. */
export interface PollingEvent {
  /** Discriminant. */
  type: 'polling';
  /**
   * `resubscribe-failed`: resubscribing after a break failed for good (refused, or out of attempts
   * or time; `cause` is the last error); `send-returned-early`: a blocking send answered before the
   * task settled.
   */
  reason: 'resubscribe-failed' | 'send-returned-early';
  /** The last error, for `resubscribe-failed`. */
  cause?: A2AError;
}

/** The agent refused the streaming send before any event; the ladder sends once, blocking. */
export interface FallbackEvent {
  /** Discriminant. */
  type: 'fallback';
  /** The streaming send was refused. */
  from: 'stream';
  /** A blocking send goes instead. */
  to: 'send';
  /** The refusal. */
  cause: A2AError;
}

/** A follow-up named a task the agent no longer has (gone, or finished): the message is sent once more with the contextId only. */
export interface TaskGoneEvent {
  /** Discriminant. */
  type: 'task-gone';
  /** The task the follow-up named. */
  taskId: string;
  /** The agent's refusal: the task is not found, or finished. */
  cause: A2AError;
}

/**
 * The agent refused the contextId the turn sent (servers that accept only contextIds they issued:
 * -32602 naming it) before any event: the message is sent once more without one, and the thread
 * adopts the contextId the agent gives it. Such an agent keeps a thread only within a process.
 */
export interface ContextRefusedEvent {
  /** Discriminant. */
  type: 'context-refused';
  /** The contextId the agent refused. */
  contextId: string;
  /** The agent's refusal. */
  cause: A2AError;
}

/**
 * A resubscription did not open with a task snapshot (the Python a2a-sdk only relays live events),
 * so events sent during the break may be missing: before the end, one `GetTask` brings the task's
 * artifacts, which are the truth, and the reply is corrected from them.
 */
export interface ReconcileEvent {
  /** Discriminant. */
  type: 'reconcile';
  /** The task read again. */
  taskId: string;
  /**
   * Why: the resubscription opened without a task snapshot; an update skipped a generation (A2A 1.1:
   * events were missed); or the task was followed by push, whose chunks may have come twice or not at
   * all. The snapshot's artifacts are the reply.
   */
  reason: 'resubscribed-without-snapshot' | 'generation-gap' | 'pushed';
}

/**
 * The thread's conversation moves to another contextId, used on its next turns: the agent answered
 * with another than the one sent (A2A forbids it; some agents do it; emitted by the client facade,
 * `reason` absent), or the thread's conversation is under a previous identity secret's contextId
 * (`reason: 'previous-secret'`: the secret was rotated; emitted before the message goes).
 */
export interface ContextAdoptedEvent {
  /** Discriminant. */
  type: 'context-adopted';
  /** The contextId the thread had: the one the turn would send (derived, or adopted before). */
  sent: string;
  /** The contextId the thread uses from now on. */
  adopted: string;
  /** Why: absent when the agent replaced the contextId; `previous-secret` after a rotation of the identity secret. */
  reason?: 'previous-secret';
}

/**
 * The turn follows its task by push (see `PushDelivery`): `asked`, the message went asking the agent to
 * post the task's updates; `handed-off`, a config was created on the running task and the stream let
 * go; `refused`, the agent refused that config (the turn goes on as it was, `cause` says why);
 * `missed`, the task moved twice without a push telling of it, so the turn goes back to the ladder
 * (resubscribe, then poll).
 */
export interface PushNoteEvent {
  /** Discriminant. */
  type: 'push';
  /** What happened. */
  step: 'asked' | 'handed-off' | 'refused' | 'missed';
  /** The task, once known. */
  taskId?: string;
  /** The refusal, for `refused`. */
  cause?: A2AError;
}

/**
 * The turn waits in its agent's queue (the client's `agentLimits`: the agent has its most turns
 * running, or started its most this second): emitted before `start`, when the turn is held back and
 * again each time it moves up. Nothing was sent yet: a turn left now sends nothing.
 */
export interface QueuedEvent {
  /** Discriminant. */
  type: 'queued';
  /** Its place in the agent's queue: 1 starts next. */
  place: number;
}

/** The ladder's own notes (and the client's `queued`), passed through the renderer unchanged. */
export type LadderNote =
  | ReconnectingEvent
  | PollingEvent
  | FallbackEvent
  | TaskGoneEvent
  | ContextRefusedEvent
  | ReconcileEvent
  | ContextAdoptedEvent
  | PushNoteEvent
  | QueuedEvent;
