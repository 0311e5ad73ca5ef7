import { TaskState as SdkTaskState, type SendMessageRequest } from '@a2a-js/sdk';
import type { Client } from '@a2a-js/sdk/client';
import { map, throwError, type Observable } from 'rxjs';
import { A2AError, type A2AOperation } from '../../errors.js';
import type { ListTasksOptions, TaskPage } from '../../port/port.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../../port/types.js';
import { streamCall, unaryCall, type CallSite } from './calls.js';
import { fromSdkEvent, fromSdkResult, fromSdkTask } from '../mapping/from-sdk.js';
import { userMessage } from '../mapping/user-message.js';
import type { AgentWire, Transport, TurnCall } from './transport.js';

/**
 * Every call through the official SDK's client: its HTTP+JSON transport, its gRPC one (Node), its
 * JSON-RPC one (with the `reader: 'sdk'` option), each in v1.0 or, through the SDK's compatibility
 * layer, v0.3, as the client was made. On gRPC the turn's headers become the call's metadata. The SDK's promises and async iterables become cold Observables ({@link unaryCall},
 * {@link streamCall}); its results are mapped to the port's types.
 */
export class SdkClientTransport implements Transport {
  constructor(
    protected readonly wire: AgentWire,
    protected readonly client: Client,
  ) {}

  send(message: OutgoingMessage, call: TurnCall): Observable<SendResult> {
    return unaryCall(this.site('send', call), (signal) => this.client.sendMessage(this.request(message), callOptions(signal, call))).pipe(
      map(fromSdkResult),
    );
  }

  stream(message: OutgoingMessage, call: TurnCall): Observable<AgentEvent> {
    const request = this.request(message);
    return streamCall(
      this.site('stream', call),
      (signal) => this.client.sendMessageStream(request, callOptions(signal, call)),
      fromSdkEvent,
    );
  }

  resubscribe(taskId: string, call: TurnCall): Observable<AgentEvent> {
    return streamCall(
      this.site('resubscribe', call),
      (signal) => this.client.resubscribeTask({ tenant: '', id: taskId }, callOptions(signal, call)),
      fromSdkEvent,
    );
  }

  getTask(taskId: string, call: TurnCall, historyLength?: number): Observable<Task> {
    // v0.3 servers read 0 as "all history"; 1 is the least they honour.
    const history = historyLength ?? (this.wire.legacy ? 1 : 0);
    return unaryCall(this.site('get-task', call), (signal) =>
      this.client.getTask({ tenant: '', id: taskId, historyLength: history }, callOptions(signal, call)),
    ).pipe(map(fromSdkTask));
  }

  cancel(taskId: string, call: TurnCall): Observable<Task> {
    return unaryCall(this.site('cancel', call), (signal) =>
      this.client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, callOptions(signal, call)),
    ).pipe(map(fromSdkTask));
  }

  listTasks(contextId: string, options: ListTasksOptions, call: TurnCall): Observable<TaskPage> {
    if (this.wire.legacy) {
      return throwError(
        () =>
          new A2AError({ kind: 'unsupported', operation: 'list-tasks', agent: this.wire.agent, message: 'v0.3 agents have no ListTasks' }),
      );
    }
    const request = {
      tenant: '',
      contextId,
      // Left out on the wire (the proto's zero value): no filter by state.
      status: SdkTaskState.TASK_STATE_UNSPECIFIED,
      pageSize: options.pageSize,
      pageToken: options.pageToken ?? '',
      historyLength: options.historyLength ?? 0,
      statusTimestampAfter: options.statusTimestampAfter,
      includeArtifacts: options.includeArtifacts === true,
    };
    return unaryCall(this.site('list-tasks', call), (signal) => this.client.listTasks(request, callOptions(signal, call))).pipe(
      map((response): TaskPage => {
        const page: TaskPage = { tasks: response.tasks.map(fromSdkTask) };
        if (response.nextPageToken) page.nextPageToken = response.nextPageToken;
        return page;
      }),
    );
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
        returnImmediately: false,
        taskPushNotificationConfig: undefined,
      },
      metadata: undefined,
    };
  }
}

/** A call's SDK options: its abort signal, and the turn's headers when it has any. */
function callOptions(signal: AbortSignal, call: TurnCall): { signal: AbortSignal; serviceParameters?: Record<string, string> } {
  return call.headers === undefined ? { signal } : { signal, serviceParameters: { ...call.headers } };
}
