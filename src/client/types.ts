import type { Observable } from 'rxjs';
import type { ThreadMemory } from '../identity/threads.js';
import type { Logger } from '../logger.js';
import type { TurnEvent } from '../port/events.js';
import type { PushDelivery } from '../port/push.js';
import type { Task } from '../port/types.js';
import type { CancelInput, HistoryInput, ResumeInput, TurnInput } from './inputs.js';
import type { CardSummary } from '../port/card.js';
import type { HistoryPage } from '../port/history.js';
import type { AgentReachOptions } from '../sdk/reach-options.js';
import type { PortFactory } from '../port/port.js';
import type { A2ATelemetry } from '../telemetry/types.js';
import type { AgentLimitsOption } from './agent-limit-option.js';
import type { TurnPolicyInput } from '../turn/policy.js';

export type { CancelInput, HistoryInput, LeaveMode, ResumeInput, SurfaceOrigin, TurnInput } from './inputs.js';

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
  /**
   * Follow tasks by the agents' push notifications instead of holding a stream or polling: a
   * receiver made with `createPushReceiver` (mounted where agents reach it, with the same identity
   * secret), and when: `'offered'` (agents whose card offers push, the default), `'always'`, or
   * `{ afterMs }` (a turn that has run that long hands its running task over to pushes). See
   * docs/push.md. None by default.
   */
  push?: PushDelivery;
  /**
   * Bounds per agent (its card URL): `maxInFlight` turns running at once, `maxStartsPerSecond` new
   * turns in any second; a turn (or resume) past them waits in order, with `queued` events, in a queue
   * of `maxQueued` (default 1,000) past which it fails at once with a `queue-full` error, sending
   * nothing. `agents` sets other bounds per origin or URL prefix. None by default: then a turn is not
   * gated at all. See docs/limits.md.
   */
  agentLimits?: AgentLimitsOption;
}

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
