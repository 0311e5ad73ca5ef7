import { ListTasksResponse, ListTasksRequest, SendMessageRequest, SendMessageResponse, Task as SdkTask } from '@a2a-js/sdk';
import { type Observable } from 'rxjs';
import type { ListTasksOptions, TaskPage, GenerationWait } from '../../../port/port.js';
import { A2AError } from '../../../errors.js';
import { endsStream, type AgentEvent, type OutgoingMessage, type SendResult, type Task } from '../../../port/types.js';
import { fromSdkEvent, fromSdkMessage, fromSdkTask } from '../mapping/from-sdk.js';
import { fastEvent } from '../reader/fast.js';
import { withDraftFields } from '../mapping/generation.js';
import { scanTextChunk } from '../reader/scan.js';
import { readStream, type ReaderOptions, type StreamMapping } from '../reader/json-rpc.js';
import { MAX_SSE_EVENT_CHARS } from '../../http/sse.js';
import { readReply, type ReplyOptions } from '../reader/reply.js';
import { listRequest, SdkClientTransport, taskPage } from './sdk-client.js';
import { resubscribeRequest, streamRequest, writeDraftFields } from './stream-requests.js';
import type { TurnCall } from './transport.js';

/** A sign of life from our stream reader: it keeps the ladder's idle and first-event clocks going. */
const ALIVE: AgentEvent = { kind: 'alive' };

/** An event after which a stream has nothing more to say, as the ladder's `TurnTask.streamDone` judges it. */
function isLastWord(event: AgentEvent): boolean {
  if (event.kind === 'message') return event.message.taskId === undefined;
  return endsStream(event.kind === 'task' ? event.task.status.state : event.kind === 'status' ? event.status.state : undefined);
}

/**
 * How our reader maps a stream's results: to agent events (an SDK server's text chunk straight from
 * the frame's text, the common v1.0 shapes straight from JSON), with signs of life, ending at a settled task.
 */
const EVENTS: StreamMapping<AgentEvent> = {
  map: fromSdkEvent,
  fast: fastEvent,
  scan: scanTextChunk,
  alive: ALIVE,
  ends: isLastWord,
  stamp: withDraftFields,
};

/**
 * A JSON-RPC agent whose streams the client reads itself ({@link readStream}: tolerant of what real
 * agents send, signs of life for the ladder's clocks, a drained body at the last word), and its v1.0
 * `ListTasks` ({@link readReply}); its other unary calls go through the SDK's JSON-RPC client like any other.
 */
export class JsonRpcReaderTransport extends SdkClientTransport {
  override stream(message: OutgoingMessage, call: TurnCall): Observable<AgentEvent> {
    const sdkRequest = this.request(message);
    const wire = streamRequest(this.wire, sdkRequest, message, sdkRequest.message?.messageId ?? '');
    return readStream(this.reader(call), wire, this.site('stream', call), EVENTS);
  }

  /**
   * A 1.1 agent's blocking `SendMessage` (the `dev-1.1` draft) read by our reader: `ifGenerationMatch` and the
   * message's `elicitationIds` written, the answer's generation and elicitations read. Any other goes through
   * the SDK's client.
   */
  override send(message: OutgoingMessage, call: TurnCall): Observable<SendResult> {
    if (this.wire.version !== '1.1') return super.send(message, call);
    const params = SendMessageRequest.toJSON({ ...this.request(message), tenant: this.wire.tenant ?? '' }) as Record<string, unknown>;
    writeDraftFields(params, message);
    const request = { endpoint: this.wire.endpoint, method: 'SendMessage', params, version: this.wire.version };
    return readReply(this.replier(call), request, this.site('send', call), (result) => {
      const payload = SendMessageResponse.fromJSON(result).payload;
      if (payload === undefined)
        throw new A2AError({ kind: 'protocol', operation: 'send', message: 'SendMessage answered neither a task nor a message' });
      const event: SendResult =
        payload.$case === 'task'
          ? { kind: 'task', task: fromSdkTask(payload.value) }
          : { kind: 'message', message: fromSdkMessage(payload.value) };
      return withDraftFields(event, result) as SendResult;
    });
  }

  override resubscribe(taskId: string, call: TurnCall): Observable<AgentEvent> {
    return readStream(this.reader(call), resubscribeRequest(this.wire, taskId), this.site('resubscribe', call), EVENTS);
  }

  /**
   * v1.0 `ListTasks` read by our reader too ({@link readReply}): the same request and page as through
   * the SDK's client, without its unary machinery and the watch's second read of the answer (the
   * first message of a thread waits for this call).
   */
  override listTasks(contextId: string, options: ListTasksOptions, call: TurnCall): Observable<TaskPage> {
    if (this.wire.legacy) return super.listTasks(contextId, options, call);
    const params = ListTasksRequest.toJSON({ ...listRequest(contextId, options), tenant: this.wire.tenant ?? '' });
    const request = { endpoint: this.wire.endpoint, method: 'ListTasks', params, version: this.wire.version };
    return readReply(this.replier(call), request, this.site('list-tasks', call), (result) => taskPage(ListTasksResponse.fromJSON(result)));
  }

  /**
   * A 1.1 agent's `GetTask` (the `dev-1.1` draft) read by our reader: the task's `generation` read, and
   * `wait` sent as `currentGeneration` (a long-poll). Any other goes through the SDK's client.
   */
  override getTask(taskId: string, call: TurnCall, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    if (this.wire.version !== '1.1') return super.getTask(taskId, call, historyLength);
    const params: Record<string, unknown> = { id: taskId, historyLength: historyLength ?? 0 };
    if (this.wire.tenant) params['tenant'] = this.wire.tenant;
    if (wait !== undefined) params['currentGeneration'] = String(wait.currentGeneration);
    const request = { endpoint: this.wire.endpoint, method: 'GetTask', params, version: this.wire.version };
    return readReply(this.replier(call), request, this.site('get-task', call), (result) => {
      const event = withDraftFields({ kind: 'task', task: fromSdkTask(SdkTask.fromJSON(result)) }, { task: result });
      return (event as Extract<AgentEvent, { kind: 'task' }>).task;
    });
  }

  /** How the reader reaches the agent for a unary call: as for a stream, with the bound on answers read whole. */
  private replier(call: TurnCall): ReplyOptions {
    const { fetch, watch } = this.wire;
    const options: ReplyOptions = { fetch, maxBytes: watch.maxResponseBytes, readsItself: (signal) => watch.readsItself(signal) };
    if (call.headers !== undefined) options.headers = call.headers;
    if (call.caller !== undefined) options.caller = call.caller;
    return options;
  }

  /** How the reader reaches the agent: its own fetch (credentials on its origin), the SSE event bound, the turn's headers and caller. */
  private reader(call: TurnCall): ReaderOptions {
    const options: ReaderOptions = { fetch: this.wire.fetch, maxEventChars: MAX_SSE_EVENT_CHARS };
    if (call.headers !== undefined) options.headers = call.headers;
    if (call.caller !== undefined) options.caller = call.caller;
    return options;
  }
}
