import type { Subscription } from 'rxjs';
import type { Logger } from '../logger.js';
import type { PushDelivery } from '../port/push.js';
import type { AgentEvent } from '../port/types.js';
import type { TurnPolicy, TurnPolicyInput } from './policy.js';

/** How the ladder runs: its bounds, its random source for jitter, its logger. */
export interface LadderOptions {
  /** Bounds and backoffs; any subset, resolved against the defaults (a policy `resolvePolicy` returned is used as it is). */
  policy?: TurnPolicyInput | TurnPolicy;
  /** Random numbers in [0, 1) for backoff jitter (inject a fixed one in tests). Default `Math.random`. */
  random?: () => number;
  /** Where a failed CancelTask is reported. Default: silent. */
  logger?: Logger;
  /**
   * Told of each CancelTask the turn starts when it is abandoned (the subscription ends when the
   * cancel is answered, fails or times out), and of each background read of a turn left before its
   * task was named (which may start a CancelTask of its own), so a process can wait before exiting.
   */
  onCancel?: (cancel: Subscription) => void;
  /**
   * Asked when a turn ends before its task settled: true means the process is handing its turns
   * over (a deploy) rather than abandoning them, so the turn leaves without `CancelTask` and reads
   * nothing on in the background; another process can resume the task. Default: never.
   */
  detached?: () => boolean;
  /**
   * Before the message goes, look for a task the agent left waiting on the conversation and continue
   * it (see `continueInterrupted` in the policy); the client sets it on a thread's first message in a
   * process. Default false.
   */
  lookForWaitingTask?: boolean;
  /**
   * The request's `taskId` is the caller's (not one the thread's own turns left interrupted): before
   * the message goes, one `GetTask` checks that the task carries the request's contextId (a thread's
   * message never reaches another thread's task: a `foreign-task` error, nothing sent), and a task
   * that is gone or finished is left out of the message. Default false.
   */
  taskFromCaller?: boolean;
  /**
   * Hears the agent's own objects of the turn, as the agent sent them and the turn took them: a
   * blocking send's task or message, each stream and resubscribe event (signs of life left out), each
   * GetTask snapshot and the CancelTask answer (as `task` events). For a caller that prints the
   * protocol's objects (`protocolStreamResponse`, `protocolTask`) beside or instead of the turn's
   * events, as `a4h send -o json` does. Called before the turn's own events for it. Without it a turn
   * does no per-event work for it.
   */
  onAgentEvent?: (event: AgentEvent) => void;
  /**
   * The thread's contextIds under previous identity secrets (newest first), on a lookup: before the
   * message goes, the conversation is found where the agent has it (the current contextId, else the
   * first previous one with a task: see `rotatedContext`), and a caller's task under one of them is
   * the thread's. A move emits `context-adopted` (`reason: 'previous-secret'`). Default none.
   */
  previousContexts?: readonly string[];
  /**
   * Follow the task by the agent's pushes instead of a stream or polling (see {@link PushDelivery}):
   * a receiver (`createPushReceiver`), and when (`'offered'` by default: agents whose card offers
   * push notifications). The pushes arrive as the turn's ordinary events; a `GetTask` now and then
   * heals a lost one; the reply at the end is the task's artifacts. Default none.
   */
  push?: PushDelivery;
}
