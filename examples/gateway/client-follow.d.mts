/** Types of client-follow.mjs, for the TypeScript tests. */
import type { GatewayAction, GatewayInterrupt } from './client-bodies.mjs';
import type { GatewayRefused } from './client-errors.mjs';
import type { GatewaySurface, GatewaySurfaceMessage, GatewaySurfaceRefused, GatewaySurfaceView } from './client-surfaces.mjs';

export interface FollowOptions {
  /** The gateway's (or the load balancer's) base URL. */
  gateway: string;
  thread: string;
  /** A bearer token (its `sub` is the user): sent as `Authorization: Bearer …`. */
  token?: string;
  /** The message to send; without it (and without `action`), the thread's reply in progress is followed. */
  text?: string;
  /** Instead of `text`: a person's A2UI action, with `surface` (client-bodies.mjs's `actionFields` makes both). */
  action?: GatewayAction;
  /** With `action`: the creation message of the surface acted on, as its `surface` frame gave it. */
  surface?: GatewaySurfaceMessage;
  /**
   * The message's id; a fresh UUID by default. Given, the message is first asked for (it may have been
   * sent before) and sent only if the agent never got it: given again with the same text, a message is not doubled.
   */
  messageId?: string;
  /**
   * With `messageId`: when that message was first posted (ms since the epoch). Asking for it then lists
   * only the thread's tasks since, and its grace before `not-received` runs from then, not from now.
   */
  sentAt?: number;
  /** The task of the question this message answers (the interrupted `end`'s `taskId`): any replica continues it. */
  taskId?: string;
  /**
   * With `taskId`: the generation the question was asked at (`interrupt.generation`). The answer goes only while
   * the task is still there; once it was answered, the gateway answers 409 ({@link GatewayRefused}).
   */
  ifGenerationMatch?: number;
  /** With `taskId`: the agent's requests for input this message answers (A2A 1.1 draft). */
  elicitationIds?: string[];
  /** A position to start from (an earlier stream's last event id). */
  from?: string;
  /** How long to keep reconnecting without progress before giving up; default 180,000 ms. */
  budgetMs?: number;
  /** The heartbeat assumed until a stream announces its own (`X-Heartbeat-Ms`); default 5,000 ms. */
  heartbeatMs?: number;
  /** Random numbers in [0, 1) for the backoff's jitter. */
  random?: () => number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /**
   * Each event as JSON, with its SSE id: among them `surface` ({@link GatewaySurface}: what a resumed stream
   * gives again is left out, an event with nothing left not given) and `surface-refused` ({@link GatewaySurfaceRefused}).
   */
  onEvent?: (event: { type: string; [key: string]: unknown }, id: string | undefined) => void;
  /** Each stream opened, with the replica that serves it (`X-Replica`: the replica's `--name`). */
  onStream?: (replica: string) => void;
  /** Before each reconnect, with the position it resumes from. */
  onReconnect?: (lastEventId: string | undefined) => void;
}

export interface Followed {
  /** The reply as the client folded it from the `text` events of every stream. */
  reply: string;
  /** The turn's `end` event, when it ended. */
  end?: {
    type: 'end';
    outcome: string;
    text: string;
    taskId?: string;
    generation?: number;
    interrupt?: GatewayInterrupt;
    /** The turn's A2UI surfaces as they stand at its end. */
    surfaces?: GatewaySurfaceView[];
  };
  /** The turn's `error` event, when it failed (kind, the gateway's sentence, retryable). */
  error?: { kind: string; message: string; retryable: boolean };
  /** Requests made after the first (streams asked again, messages asked for or sent again). */
  reconnects: number;
  /** Times the message was sent again because the agent never got it. */
  resent: number;
  /** A2UI messages and refusals a resumed stream gave again (its replica did not see them), not given to `onEvent`. */
  replayed: number;
  /** The replica of each stream, in order. */
  replicas: string[];
  /** For each stream that broke: ms from the last event before the break to the first one after. */
  recoveries: number[];
  /** The message's id (when a message was sent). */
  messageId?: string;
  lastEventId?: string;
}

export declare const DEFAULT_BUDGET_MS: number;
export declare function followTurn(options: FollowOptions): Promise<Followed>;
/** The pause before reconnect number `attempt` (from 0). */
export declare function backoff(attempt: number, random?: () => number): number;
