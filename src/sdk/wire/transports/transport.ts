import type { Client } from '@a2a-js/sdk/client';
import type { Observable } from 'rxjs';
import type { Binding } from '../bindings/binding.js';
import type { AuthDetails } from '../../../errors.js';
import type { ListTasksOptions, TaskPage, GenerationWait } from '../../../port/port.js';
import type { NewPushConfig, PushConfig, PushConfigPage } from '../../../port/push-configs.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../../../port/types.js';
import type { ResponseWatch } from '../fetch/response-watch.js';
import type { Caller } from '../../http/credentials/callers.js';

/** A turn's own headers on a call (its trace context, with telemetry); none by default. */
export type TurnHeaders = Readonly<Record<string, string>> | undefined;

/** What a turn adds to each of its calls: its own headers, and whom the call is for (the credentials' caller). */
export interface TurnCall {
  readonly headers?: TurnHeaders;
  readonly caller?: Caller;
}

/**
 * One agent's wire, in one protocol generation: the port's calls as the agent's binding carries them.
 * A resolved agent gets one, chosen once ({@link chooseTransport}); the port maps its calls onto it
 * without asking which it is. Each call is a cold Observable with its own `AbortController`, and fails
 * with an `A2AError` named after the agent and the operation.
 */
export interface Transport {
  /** A blocking `SendMessage`. */
  send(message: OutgoingMessage, call: TurnCall): Observable<SendResult>;
  /** `SendStreamingMessage` (v0.3 `message/stream`). */
  stream(message: OutgoingMessage, call: TurnCall): Observable<AgentEvent>;
  /** `SubscribeToTask` (v0.3 `tasks/resubscribe`). */
  resubscribe(taskId: string, call: TurnCall): Observable<AgentEvent>;
  /** `GetTask`, with `historyLength` messages of history (by default the fewest the generation allows). */
  /** `GetTask`; `wait` (A2A 1.1's long-poll) is sent only where the transport and the agent speak 1.1. */
  getTask(taskId: string, call: TurnCall, historyLength?: number, wait?: GenerationWait): Observable<Task>;
  /** `CancelTask`. */
  cancel(taskId: string, call: TurnCall): Observable<Task>;
  /** `ListTasks` of one conversation (v1.0; `unsupported` on v0.3). */
  listTasks(contextId: string, options: ListTasksOptions, call: TurnCall): Observable<TaskPage>;
  /** `CreateTaskPushNotificationConfig`. */
  createPushConfig(config: NewPushConfig, call: TurnCall): Observable<PushConfig>;
  /** `GetTaskPushNotificationConfig`. */
  getPushConfig(taskId: string, configId: string, call: TurnCall): Observable<PushConfig>;
  /** `ListTaskPushNotificationConfigs`. */
  listPushConfigs(taskId: string, page: { pageSize?: number; pageToken?: string }, call: TurnCall): Observable<PushConfigPage>;
  /** `DeleteTaskPushNotificationConfig`. */
  deletePushConfig(taskId: string, configId: string, call: TurnCall): Observable<true>;
}

/** Where one agent's calls go and how: what every transport of it needs besides the SDK's client. */
export interface AgentWire {
  /** The chosen interface's URL (a gRPC one's `host:port`), where its calls go. */
  readonly endpoint: string;
  /** The agent as errors name it: the interface's URL without credentials. */
  readonly agent: string;
  /** The chosen interface's binding. */
  readonly binding: Binding;
  /** The interface's tenant, when it has one. */
  readonly tenant: string | undefined;
  /** The calls speak A2A v0.3. */
  readonly legacy: boolean;
  /**
   * The `A2A-Version` the client's own reader says on its calls: `0.3`, `1.0`, or `1.1` (the `dev-1.1`
   * draft: its `generation` read) where the chosen interface offers 1.1 or later.
   */
  readonly version: '0.3' | '1.0' | '1.1';
  /** The fetch of its calls: the agent's credentials on its origin, 401/403 as `auth` errors. */
  readonly fetch: typeof fetch;
  /** What an `auth` error of its calls says: the card's schemes and what kind of credential is sent. */
  readonly auth: AuthDetails;
  /** The fetch under the SDK's calls, which remembers their statuses. */
  readonly watch: ResponseWatch;
  /** `acceptedOutputModes` of every send (one array for every call: nothing writes to it). */
  readonly outputModes: string[];
}

/**
 * The SDK's client of one agent in one generation, made when a call first needs it and kept (a failure
 * to make it is kept too, as a `card` error): the client's own reader makes a JSON-RPC agent's streams
 * and `ListTasks` without it.
 */
export type SdkClientOf = () => Promise<Client>;

/** Who reads JSON-RPC streams: the client's own tolerant reader (`a4h`) or the SDK's transport (`sdk`). */
export type StreamReader = 'a4h' | 'sdk';
