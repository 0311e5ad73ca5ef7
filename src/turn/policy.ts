import { A2AError } from '../errors.js';
import { bool, bounded, finite, Invalid, object, oneOf, whole, withDefault, type Reader } from '../validation.js';

/** The longest delay a JavaScript timer takes (about 24.8 days); longer ones would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/** A positive whole number of milliseconds a timer can wait, defaulting to `value`. */
const ms = (value: number) => bounded(whole, 0, MAX_TIMER_MS, value, true);
/** A whole number in [min, max], defaulting to `value`. */
const count = (min: number, max: number, value: number) => bounded(whole, min, max, value);
/** A number in [min, max], defaulting to `value`. */
const ratio = (min: number, max: number, value: number) => bounded(finite, min, max, value);
/** A nested group of options: absent, all its defaults. */
const group = <T>(read: Reader<T>): Reader<T> => withDefault(read, () => read({}, []));

/** A backoff: the fields of {@link Backoff}, with these defaults. */
const backoff = (initialDelayMs: number, factor: number, maxDelayMs: number, jitter: number) => ({
  initialDelayMs: ms(initialDelayMs),
  factor: ratio(1, 10, factor),
  maxDelayMs: ms(maxDelayMs),
  jitter: ratio(0, 1, jitter),
});

/** How a {@link TurnPolicy} is read from what a caller gives: each field checked, each absent one its default. */
const readPolicy = object(
  {
    cardTimeoutMs: ms(10_000),
    sendTimeoutMs: ms(300_000),
    firstEventTimeoutMs: ms(30_000),
    idleTimeoutMs: ms(300_000),
    authWaitMs: ms(600_000),
    turnTimeoutMs: ms(1_800_000),
    cancelTimeoutMs: ms(5_000),
    maxReplyChars: count(1, 1e9, 4_000_000),
    maxArtifacts: count(1, 1e7, 10_000),
    maxAttachmentBytes: count(0, 2 ** 40, 32 * 1024 * 1024),
    maxAttachments: count(0, 1e6, 100),
    continueInterrupted: withDefault(bool, () => true),
    waitingTaskLookup: oneOf('first-message', 'every-message'),
    lookupTimeoutMs: ms(1_000),
    notReceivedAfterMs: count(0, MAX_TIMER_MS, 10_000),
    clockSkewMs: count(0, MAX_TIMER_MS, 60_000),
    secondMessage: oneOf('queue', 'supersede', 'parallel'),
    reconnect: group(object({ maxAttempts: count(0, 100, 5), maxElapsedMs: ms(300_000), ...backoff(500, 2, 10_000, 0.5) }, false)),
    retryAfter: group(object({ maxTries: count(0, 100, 3), maxWaitMs: ms(30_000), ...backoff(1_000, 2, 10_000, 0.5) }, false)),
    poll: group(
      object(
        {
          ...backoff(1_000, 1.5, 15_000, 0.2),
          requestTimeoutMs: ms(15_000),
          maxErrors: count(0, 100, 3),
          staleAfterMs: ms(300_000),
          longPollMs: count(0, MAX_TIMER_MS, 30_000),
        },
        false,
      ),
    ),
  },
  false,
);

/** Every bound and backoff of a turn, resolved (see {@link resolvePolicy} for the defaults; all times in milliseconds). */
export interface TurnPolicy {
  /** Fetching the agent card. */
  cardTimeoutMs: number;
  /** A blocking `SendMessage` until the agent answers. Agents think for long stretches. */
  sendTimeoutMs: number;
  /** A stream (or a resubscribe) until its first event. */
  firstEventTimeoutMs: number;
  /** The longest quiet gap between two stream events. Generous: tool calls and thinking are quiet. */
  idleTimeoutMs: number;
  /** How long an AUTH_REQUIRED stream is kept open for the agent to resume by itself. */
  authWaitMs: number;
  /** The whole turn, from subscribe to the end event. */
  turnTimeoutMs: number;
  /** The CancelTask sent when a turn is abandoned. */
  cancelTimeoutMs: number;
  /** The longest reply kept, in characters; a longer one ends the turn with a protocol error. */
  maxReplyChars: number;
  /** The most artifacts one turn keeps; more ends the turn with a protocol error. */
  maxArtifacts: number;
  /**
   * The bytes of files and data parts one turn keeps (the agent's answer), and the most a message
   * sends; more ends the turn with a protocol error (an `input` error for a message). Default 32 MiB.
   */
  maxAttachmentBytes: number;
  /** The most files and data parts one turn keeps; more ends the turn with a protocol error. */
  maxAttachments: number;
  /**
   * A thread's message continues a task the agent left waiting on it (input-required, auth-required):
   * the one a turn of this process ended on, or one a lookup finds (`ListTasks`, v1.0 agents; when:
   * `waitingTaskLookup`), so a question asked before a restart is answered in its own task. `false`
   * turns both off: only a task id the caller gives is continued (replicas whose callers carry the
   * question's task id, so no process's memory decides).
   */
  continueInterrupted: boolean;
  /**
   * When a thread's message looks for a task the agent left waiting (with `continueInterrupted`):
   * `first-message`, the thread's first message in this process (later ones continue what this
   * process saw end interrupted: one process serves the thread); `every-message`, each message that
   * names no task (replicas behind a load balancer, whose callers do not carry the pending question's
   * task id: one `ListTasks` more per message, within `lookupTimeoutMs`).
   */
  waitingTaskLookup: 'first-message' | 'every-message';
  /**
   * How long a message waits for that lookup before it goes without it (as a new task). Short: the
   * person is waiting. Default 1 s.
   */
  lookupTimeoutMs: number;
  /**
   * How long after a message was sent a resume by its `messageId` may report `not-received`: until
   * then the agent may still be taking it (the request on the wire, the agent storing its task), so a
   * lookup that finds no task carrying it lists the thread again at the poll's pace until this much
   * time has passed since the message was sent (`sentAt` of the resume, else the resume's start).
   * Default 10 s.
   */
  notReceivedAfterMs: number;
  /**
   * How far an agent's clock may be behind this process's: a resume by `messageId` given `sentAt`
   * lists the thread's tasks whose status changed since `sentAt` less this (the agent stamps them by
   * its clock). Default 60 s.
   */
  clockSkewMs: number;
  /**
   * What a thread's message does while an earlier message's reply still streams (in this process):
   * `queue` (the default) sends it when the replies ahead of it ended, so both are answered, in
   * order, each reply seeing the exchange before it; `supersede` ends the reply in progress (its task
   * cancelled) and sends the new message at once; `parallel` sends it at once beside it.
   */
  secondMessage: 'queue' | 'supersede' | 'parallel';
  /** A stream that breaks: resubscribed with this backoff, within these bounds, before the turn falls back to polling. */
  reconnect: {
    /** Resubscribe attempts in a row without an event before falling back to polling. */
    maxAttempts: number;
    /** Time since the break after which no further resubscribe is tried; not shorter than `idleTimeoutMs` (unset, it follows a longer one). */
    maxElapsedMs: number;
  } & Backoff;
  /**
   * A call answered HTTP 429 or 503 before any event (the card, a blocking send, a stream's open,
   * GetTask, CancelTask, ListTasks, a resubscribe): the agent did not take it, so it is made again —
   * a send too — after the answer's `Retry-After` (seconds or an HTTP date), or, when it names none,
   * after this backoff. At most `maxTries` times per call, waiting at most `maxWaitMs` in all, and
   * never past the turn's deadline or the call's own bound (`cardTimeoutMs`, `sendTimeoutMs`,
   * `firstEventTimeoutMs`, `poll.requestTimeoutMs`, `cancelTimeoutMs`); past those the error says
   * when to try again (`retryAfterMs`, `retryAt`).
   */
  retryAfter: {
    /** Times one call is made again after a 429 or 503; 0 waits for none. */
    maxTries: number;
    /** The most one call waits in all; a `Retry-After` that would pass it is not waited for. */
    maxWaitMs: number;
  } & Backoff;
  /** Polling `GetTask`, for an agent that does not stream or a stream that could not be resubscribed. */
  poll: Backoff & {
    /** One `GetTask` request. */
    requestTimeoutMs: number;
    /** Failed `GetTask` requests in a row that are tried again; one more failure ends the turn. */
    maxErrors: number;
    /** A task that shows no change for this long ends the turn with a timeout. */
    staleAfterMs: number;
    /**
     * A2A 1.1 (draft): the longest a long-poll `GetTask` (`currentGeneration`) may be held by the agent, on
     * top of `requestTimeoutMs`; asked only of an agent that sends generations. 0: never a long-poll.
     */
    longPollMs: number;
  };
}

/** Options as callers give them: any subset, nested groups partial too. */
export type TurnPolicyInput = {
  [K in keyof TurnPolicy]?: TurnPolicy[K] extends object ? Partial<TurnPolicy[K]> : TurnPolicy[K];
};

/** The backoff settings shared by reconnect and poll. */
export interface Backoff {
  /** The delay before the first retry, in milliseconds. */
  initialDelayMs: number;
  /** What each next delay is multiplied by. */
  factor: number;
  /** The longest delay, in milliseconds. */
  maxDelayMs: number;
  /** The fraction of each delay taken off at random: 0 none, 1 full jitter. */
  jitter: number;
}

/** Policies {@link resolvePolicy} returned: already valid, with every default filled in. */
const RESOLVED = new WeakSet<object>();

/** The defaults, resolved once. */
export const DEFAULT_POLICY: TurnPolicy = readPolicy({}, []) as TurnPolicy;
RESOLVED.add(DEFAULT_POLICY);

/**
 * Resolves caller options against the defaults, in one place. Throws an {@link A2AError} of kind
 * `config` naming the first bad field.
 */
export function resolvePolicy(input: TurnPolicyInput | TurnPolicy | undefined): TurnPolicy {
  if (input === undefined) return DEFAULT_POLICY;
  // A policy this function resolved before is used as it is: a client resolves once, not per turn.
  if (RESOLVED.has(input)) return input as TurnPolicy;
  let policy: TurnPolicy;
  try {
    policy = readPolicy(input, []) as TurnPolicy;
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: `invalid turn option ${error.where('(options)')}: it ${error.says}`,
      cause: error,
    });
  }
  // Not given, the reconnect budget follows a longer idle gap (given, it is checked against it).
  const given = (input as { reconnect?: { maxElapsedMs?: unknown } }).reconnect?.maxElapsedMs !== undefined;
  if (!given) policy.reconnect.maxElapsedMs = Math.max(policy.reconnect.maxElapsedMs, policy.idleTimeoutMs);
  checkRelations(policy);
  RESOLVED.add(policy);
  return policy;
}

/**
 * Bounds that only make sense together. A reconnect budget shorter than the idle gap that breaks a
 * stream would give up on the first quiet resubscription: the idle clock would outlast it.
 */
function checkRelations(policy: TurnPolicy): void {
  if (policy.reconnect.maxElapsedMs < policy.idleTimeoutMs) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: `invalid turn option reconnect.maxElapsedMs: it is ${policy.reconnect.maxElapsedMs}, shorter than idleTimeoutMs (${policy.idleTimeoutMs}); it must not be`,
    });
  }
}

/**
 * The delay before retry number `attempt` (1-based): exponential, capped, with jitter taken off
 * from `random()` in [0, 1). Without jitter it is monotone in `attempt` and never above the cap.
 */
export function backoffDelay(backoff: Backoff, attempt: number, random: () => number): number {
  const base = Math.min(backoff.maxDelayMs, backoff.initialDelayMs * backoff.factor ** Math.max(0, attempt - 1));
  return Math.round(base * (1 - backoff.jitter * random()));
}
