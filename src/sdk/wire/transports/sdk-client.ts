import { TaskState as SdkTaskState, type ListTasksRequest, type ListTasksResponse, type SendMessageRequest } from '@a2a-js/sdk';
import { map, throwError, type Observable } from 'rxjs';
import { A2AError, type A2AOperation } from '../../../errors.js';
import type { ListTasksOptions, TaskPage, GenerationWait } from '../../../port/port.js';
import type { NewPushConfig, PushConfig, PushConfigPage } from '../../../port/push-configs.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../../../port/types.js';
import { streamCall, unaryCall, type CallSite } from './calls.js';
import { fromSdkEvent, fromSdkResult, fromSdkTask, sdkStateOf } from '../mapping/from-sdk.js';
import { fromSdkPushConfig, sdkPushTarget, toSdkPushConfig } from '../mapping/push-config.js';
import { userMessage } from '../mapping/user-message.js';
import type { AgentWire, SdkClientOf, Transport, TurnCall } from './transport.js';

/**
 * Every call through the official SDK's client: its HTTP+JSON transport, its gRPC one (Node), its
 * JSON-RPC one (with the `reader: 'sdk'` option), each in v1.0 or, through the SDK's compatibility
 * layer, v0.3, as the client was made. On gRPC the turn's headers become the call's metadata. The SDK's promises and async iterables become cold Observables ({@link unaryCall},
 * {@link streamCall}); its results are mapped to the port's types.
 */
export class SdkClientTransport implements Transport {
  constructor(
    protected readonly wire: AgentWire,
    protected readonly client: SdkClientOf,
  ) {}

  send(message: OutgoingMessage, call: TurnCall): Observable<SendResult> {
    return unaryCall(this.site('send', call), (signal) =>
      this.client().then((client) => client.sendMessage(this.request(message), callOptions(signal, call))),
    ).pipe(map(fromSdkResult));
  }

  stream(message: OutgoingMessage, call: TurnCall): Observable<AgentEvent> {
    const request = this.request(message);
    return streamCall(
      this.site('stream', call),
      (signal) => this.client().then((client) => client.sendMessageStream(request, callOptions(signal, call))),
      fromSdkEvent,
    );
  }

  resubscribe(taskId: string, call: TurnCall): Observable<AgentEvent> {
    return streamCall(
      this.site('resubscribe', call),
      (signal) => this.client().then((client) => client.resubscribeTask({ tenant: '', id: taskId }, callOptions(signal, call))),
      fromSdkEvent,
    );
  }

  getTask(taskId: string, call: TurnCall, historyLength?: number, _wait?: GenerationWait): Observable<Task> {
    // v0.3 servers read 0 as "all history"; 1 is the least they honour.
    const history = historyLength ?? (this.wire.legacy ? 1 : 0);
    return unaryCall(this.site('get-task', call), (signal) =>
      this.client().then((client) => client.getTask({ tenant: '', id: taskId, historyLength: history }, callOptions(signal, call))),
    ).pipe(map(fromSdkTask));
  }

  cancel(taskId: string, call: TurnCall): Observable<Task> {
    return unaryCall(this.site('cancel', call), (signal) =>
      this.client().then((client) => client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, callOptions(signal, call))),
    ).pipe(map(fromSdkTask));
  }

  listTasks(contextId: string, options: ListTasksOptions, call: TurnCall): Observable<TaskPage> {
    if (this.wire.legacy) {
      return throwError(
        () =>
          new A2AError({ kind: 'unsupported', operation: 'list-tasks', agent: this.wire.agent, message: 'v0.3 agents have no ListTasks' }),
      );
    }
    const request = listRequest(contextId, options);
    return unaryCall(this.site('list-tasks', call), (signal) =>
      this.client().then((client) => client.listTasks(request, callOptions(signal, call))),
    ).pipe(map(taskPage));
  }

  createPushConfig(config: NewPushConfig, call: TurnCall): Observable<PushConfig> {
    return unaryCall(this.site('push-config', call), (signal) =>
      this.client().then((client) => client.createTaskPushNotificationConfig(toSdkPushConfig(config), callOptions(signal, call))),
    ).pipe(map(fromSdkPushConfig));
  }

  getPushConfig(taskId: string, configId: string, call: TurnCall): Observable<PushConfig> {
    return unaryCall(this.site('push-config', call), (signal) =>
      this.client().then((client) => client.getTaskPushNotificationConfig({ tenant: '', taskId, id: configId }, callOptions(signal, call))),
    ).pipe(map(fromSdkPushConfig));
  }

  listPushConfigs(taskId: string, page: { pageSize?: number; pageToken?: string }, call: TurnCall): Observable<PushConfigPage> {
    const request = { tenant: '', taskId, pageSize: page.pageSize ?? 0, pageToken: page.pageToken ?? '' };
    return unaryCall(this.site('push-config', call), (signal) =>
      this.client().then((client) => client.listTaskPushNotificationConfig(request, callOptions(signal, call))),
    ).pipe(
      map((response): PushConfigPage => {
        const out: PushConfigPage = { configs: response.configs.map(fromSdkPushConfig) };
        if (response.nextPageToken) out.nextPageToken = response.nextPageToken;
        return out;
      }),
    );
  }

  deletePushConfig(taskId: string, configId: string, call: TurnCall): Observable<true> {
    return unaryCall(this.site('push-config', call), (signal) =>
      this.client().then((client) =>
        client.deleteTaskPushNotificationConfig({ tenant: '', taskId, id: configId }, callOptions(signal, call)),
      ),
    ).pipe(map((): true => true));
  }

  /** Where a call goes, as its errors name it, and whom it is for. */
  protected site(operation: A2AOperation, call: TurnCall): CallSite {
    const { agent, watch, auth } = this.wire;
    return call.caller === undefined ? { operation, agent, watch, auth } : { operation, agent, watch, auth, caller: call.caller };
  }

  /** The send's request as the SDK takes it (it puts the interface's tenant on it). */
  protected request(message: OutgoingMessage): SendMessageRequest {
    return {
      tenant: '', // the SDK puts the chosen interface's tenant on every request
      message: userMessage(message),
      configuration: {
        acceptedOutputModes: this.wire.outputModes,
        // v0.3 servers read 0 as "all history"; 1 is the least they honour.
        historyLength: this.wire.legacy ? 1 : 0,
        returnImmediately: message.returnImmediately === true,
        taskPushNotificationConfig: message.push === undefined ? undefined : sdkPushTarget(message.push),
      },
      metadata: undefined,
    };
  }
}

/** A v1.0 `ListTasks` request of one conversation, as the SDK takes it (it puts the interface's tenant on it). */
export function listRequest(contextId: string, options: ListTasksOptions): ListTasksRequest {
  return {
    tenant: '',
    contextId,
    // UNSPECIFIED is left out on the wire (the proto's zero value): no filter by state.
    status: options.status === undefined ? SdkTaskState.TASK_STATE_UNSPECIFIED : sdkStateOf(options.status),
    pageSize: options.pageSize,
    pageToken: options.pageToken ?? '',
    historyLength: options.historyLength ?? 0,
    statusTimestampAfter: options.statusTimestampAfter,
    includeArtifacts: options.includeArtifacts === true,
  };
}

/** A `ListTasks` answer as the port's page. */
export function taskPage(response: ListTasksResponse): TaskPage {
  const page: TaskPage = { tasks: response.tasks.map(fromSdkTask) };
  if (response.nextPageToken) page.nextPageToken = response.nextPageToken;
  return page;
}

/** A call's SDK options: its abort signal, and the turn's headers when it has any. */
function callOptions(signal: AbortSignal, call: TurnCall): { signal: AbortSignal; serviceParameters?: Record<string, string> } {
  return call.headers === undefined ? { signal } : { signal, serviceParameters: { ...call.headers } };
}
