/** Types of client.mjs, for the TypeScript tests. */

export interface FollowOptions {
  /** The gateway's (or the load balancer's) base URL. */
  gateway: string;
  thread: string;
  /** A bearer token (its `sub` is the user): sent as `Authorization: Bearer …`. */
  token?: string;
  /** The message to send; without it (and without `action`), the thread's reply in progress is followed. */
  text?: string;
  /** Instead of `text`: a person's A2UI action, with `surface` ({@link actionFields} makes both). */
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

/** An `input-required` or `auth-required` end's question, as the gateway sends it (sse.mjs). */
export interface GatewayInterrupt {
  kind: 'input' | 'auth';
  /** The task waiting for the answer. */
  taskId: string;
  /** The question's text. */
  text: string;
  /** The agent's requests for input (A2A 1.1 draft): `blocked` and `waiting` ones are open. */
  elicitations?: Array<{ id: string; state: 'waiting' | 'blocked' | 'resolved' | 'unknown' }>;
  /** The task's generation at the question (A2A 1.1 draft), when the agent keeps them. */
  generation?: number;
}

/** One A2UI message as the gateway sends it (sse.mjs): read and checked by the library, for a renderer's message processor. */
export interface GatewaySurfaceMessage {
  /** `createSurface`, `updateComponents`, `updateDataModel`, `deleteSurface`, `actionResponse`; v0.8's `beginRendering`, …. */
  kind: string;
  /** The surface it is about (absent only on an `actionResponse`). */
  surfaceId?: string;
  /** The version it says (`"v1.0"`, `"v0.9"`); absent on v0.8. */
  version?: string;
  /** The message as the agent sent it. */
  message: Record<string, unknown>;
}

/** A `surface` frame: messages about one surface, in order, to hand to a renderer together. */
export interface GatewaySurface {
  type: 'surface';
  surfaceId: string;
  messages: GatewaySurfaceMessage[];
}

/** A `surface-refused` frame: one of the agent's A2UI messages was refused (nothing of it is sent). */
export interface GatewaySurfaceRefused {
  type: 'surface-refused';
  /** `unsafe-url`, `too-deep`, `too-large`, `malformed`, `too-many-surfaces`, `too-many-components`. */
  reason: string;
  /** The gateway's sentence for the reason. */
  message: string;
  /** The surface the message was about, when it named one that does not read as a URL. */
  surfaceId?: string;
}

/** A surface as the turn left it (the `end`'s `surfaces`): its messages since it was created, to replay. */
export interface GatewaySurfaceView {
  surfaceId: string;
  messages: GatewaySurfaceMessage[];
}

/** A person's action on a surface, as a message body carries it (the gateway builds the A2UI message from it). */
export interface GatewayAction {
  surfaceId: string;
  /** The action's name, as the component's action names it. */
  name: string;
  /** The component the person used. */
  sourceComponentId: string;
  /** The action's context, resolved against the data model. */
  context?: Record<string, unknown>;
  /** The surface's data model as the renderer holds it: sent to the agent only when the surface asked for it (`sendDataModel`). */
  dataModel?: unknown;
  /** ISO 8601. */
  timestamp?: string;
}

/** What {@link actionFields} takes: the action, without its surface. */
export type ActionInput = Omit<GatewayAction, 'surfaceId'>;

/** The fields of a message carrying an action ({@link actionFields}), spread into {@link followTurn}'s options. */
export interface ActionFields {
  action: GatewayAction;
  surface: GatewaySurfaceMessage;
}

/** What an answer's message names besides its text ({@link answerFields}). */
export interface AnswerFields {
  taskId: string;
  ifGenerationMatch?: number;
  elicitationIds?: string[];
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

/** The client gave up: where to resume from (`--from`), or the message to ask for (`--message-id`). */
export declare class GatewayUnreachable extends Error {
  /** The position reached, once the agent named the task. */
  readonly lastEventId?: string;
  /** The message's id, when it may have been sent and no position was reached. */
  readonly messageId?: string;
  /** When that message was first posted, when known (`--sent-at`). */
  readonly sentAt?: number;
}

/** The gateway refused the request (a 4xx other than 408, 425, 429); after a 401, a fresh token goes on from where it was. */
export declare class GatewayRefused extends GatewayUnreachable {
  readonly status: number;
}

/** The fields of a message answering `interrupt`: its task, its generation, the requests for input still open. */
export declare function answerFields(interrupt: GatewayInterrupt): AnswerFields;
/** The fields of a message carrying a person's action on `surface`; a `TypeError` when its messages hold no creation. */
export declare function actionFields(surface: GatewaySurfaceView, input: ActionInput): ActionFields;
export declare function followTurn(options: FollowOptions): Promise<Followed>;
/** The pause before reconnect number `attempt` (from 0). */
export declare function backoff(attempt: number, random?: () => number): number;
