import type { Observable } from 'rxjs';
import type { ThreadMemory } from '../identity/threads.js';
import type { Logger } from '../logger.js';
import type { TurnEvent } from '../port/events.js';
import type { ReplyPosition } from '../render/position.js';
import type { OutgoingFile, OutgoingMessage, Task } from '../port/types.js';
import type { CardSummary } from '../port/card.js';
import type { HistoryPage } from '../port/history.js';
import type { AgentReachOptions } from '../sdk/reach-options.js';
import type { PortFactory } from '../port/port.js';
import type { A2ATelemetry } from '../telemetry/types.js';
import type { TurnPolicyInput } from '../turn/policy.js';

/**
 * How a client reaches agents and keeps threads. The agent-reach options ({@link AgentReachOptions}:
 * fetch, maxResponseBytes, credentials, trust, extensions, bindings) are checked here (a bad entry
 * is a `config` error from `createA2A`) and ignored with `ports`.
 */
export interface A2AOptions extends AgentReachOptions {
  /**
   * The secret contextIds are derived with (at least 16 bytes). Without one, a random key for this
   * process (one warning through the logger): conversations then do not continue after a restart.
   * The Node entry reads `A4H_IDENTITY_SECRET` when this is not given.
   */
  identitySecret?: string | Uint8Array;
  /**
   * The secrets `identitySecret` replaced, newest first: a thread's first message in this process
   * that finds no task under its current contextId looks under theirs (ListTasks, v1.0 agents) and
   * continues the conversation there. The Node entry reads `A4H_PREVIOUS_IDENTITY_SECRETS`.
   */
  previousIdentitySecrets?: readonly (string | Uint8Array)[];
  /** What the caller can render: sent as `acceptedOutputModes`. Default `text/plain`, `text/markdown`. */
  capabilities?: { outputModes?: readonly string[] };
  /** pino- or console-shaped; silent by default. */
  logger?: Logger;
  /** Bounds and backoffs of every turn (see docs/client.md). */
  policy?: TurnPolicyInput;
  /** Ports to agents; default the official SDK's (`createSdkPorts`), reaching them as the options above say. Inject a fake one in tests. */
  ports?: PortFactory;
  /** Threads remembered at most (the least recently used go first), and as many derived contextIds kept (the oldest go first). Default 10,000. */
  maxThreads?: number;
  /** Random numbers in [0, 1) for backoff jitter. Default `Math.random`. */
  random?: () => number;
  /**
   * OpenTelemetry: a span per turn (`a2a.turn`), the turn metrics and the span's `traceparent` on
   * each of the turn's requests (see docs/telemetry.md). Pass `otelTelemetry()` from
   * `a4h-a2a/telemetry`, or a tracer and a meter of your own `@opentelemetry/api`. None by default:
   * then a turn does no telemetry work at all.
   */
  telemetry?: A2ATelemetry;
}

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

/** How a client closes. */
export interface CloseOptions {
  /** Hand the turns still running over (no CancelTask) rather than leave them to be cancelled. Default false. */
  detach?: boolean;
  /**
   * With `detach`: how long to wait, in milliseconds, for the agent to name the task of a turn whose
   * message is still on its way (until then another process could not resume it by task). Default 5,000.
   */
  handOverWaitMs?: number;
}

/** What `createA2A` returns: turns to agents, on threads that continue across restarts. */
export interface A2AClient {
  /** One turn: a cold Observable of turn events (see `runTurn`), with the thread's ids filled in. */
  turn(input: TurnInput): Observable<TurnEvent>;
  /**
   * Follows a thread's reply in flight instead of sending a message: the same turn events, from what
   * the agent already said (its task's snapshot) to the end, exactly once. With `taskId`, that task;
   * otherwise the thread's newest unfinished task found with `ListTasks` (v1.0). An interrupted task
   * ends with its outcome and the thread's next turn continues it; nothing unfinished ends with
   * outcome `none`. Leaving a resumed turn cancels its task, like any turn.
   */
  resume(input: ResumeInput): Observable<TurnEvent>;
  /**
   * A page of a thread's past exchanges, rebuilt from the agent with nothing stored (`ListTasks` by
   * the thread's contextId, v1.0; see `threadHistory`): one {@link HistoryPage}, then complete. Its
   * exchanges are oldest first (the newest `limit`, or those before `before`), each the person's
   * messages and the reply as the turn ended it; its `before` loads earlier ones. Only the thread's
   * own tasks are shown. A v0.3 agent fails with an `unsupported` error. Nothing is remembered.
   */
  history(input: HistoryInput): Observable<HistoryPage>;
  /**
   * `CancelTask` of a task by id (see {@link CancelInput}): the task as the agent has it after the
   * cancel (its state: `canceled`, or what it was when the agent refuses), then complete. On a thread,
   * one `GetTask` first checks it is the thread's.
   */
  cancel(input: CancelInput): Observable<Task>;
  /** The agent's resolved card (from the shared cache): protocol version, transport, streaming, tenant, skills. */
  card(agent: string): Observable<CardSummary>;
  /** The derived contextId of a thread: the same on every replica and release that shares the secret. */
  contextId(handle: string, thread: string): Promise<string>;
  /** Every contextId a thread may have: the current secret's, and the previous secrets' (newest first). */
  contextIds(handle: string, thread: string): Promise<{ current: string; previous: string[] }>;
  /** What this process remembers of a thread (an adopted contextId, an interrupted task), if anything. */
  thread(agent: string, handle: string, thread: string): Readonly<ThreadMemory> | undefined;
  /**
   * Ends the turns still running: each fails with an `aborted` error and its task gets CancelTask,
   * as a turn left before its end does. Then waits for the CancelTasks of abandoned turns to be
   * answered (each bounded), and releases what the client owns (the Node entry's connection pool).
   * With `detach` (a replica shutting down for a deploy), the running turns are handed over instead:
   * they stop reading and fail with `aborted`, and no CancelTask goes out, so another process can
   * `resume` them. Only turns whose task the agent named are handed over: a turn whose message is
   * still on its way is waited for (`handOverWaitMs`), handed over when its `task` event came, or
   * failed with an `aborted` error that says its message may not have arrived (resume the thread by
   * the turn's `messageId` to learn whether it did).
   */
  close(options?: CloseOptions): Promise<void>;
}
