import type { Observable } from 'rxjs';
import type { AgentEvent, OutgoingMessage } from '../../../port/types.js';
import { DIRECT_KEY, openDelivery } from '../bindings/grpc/direct.js';
import { fromSdkEvent } from '../mapping/from-sdk.js';
import { streamCall } from './calls.js';
import { SdkClientTransport } from './sdk-client.js';
import type { TurnCall } from './transport.js';

/**
 * A v1.0 gRPC agent whose streams' messages are handed straight to the turn (`bindings/grpc/direct.ts`):
 * each call still goes through the SDK's client (its interceptors, its metadata, its tenant, its status
 * and errors), only the messages skip its async iterators. Unary calls go through the SDK like any other.
 */
export class DirectStreamTransport extends SdkClientTransport {
  override stream(message: OutgoingMessage, call: TurnCall): Observable<AgentEvent> {
    const request = this.request(message);
    return streamCall(
      this.site('stream', call),
      (signal, sink) => this.client().then((client) => client.sendMessageStream(request, directOptions(signal, call, sink))),
      fromSdkEvent,
      openDelivery,
    );
  }

  override resubscribe(taskId: string, call: TurnCall): Observable<AgentEvent> {
    return streamCall(
      this.site('resubscribe', call),
      (signal, sink) =>
        this.client().then((client) => client.resubscribeTask({ tenant: '', id: taskId }, directOptions(signal, call, sink))),
      fromSdkEvent,
      openDelivery,
    );
  }
}

/** A stream call's SDK options: its abort signal, and its service parameters (the turn's headers and the sink's key). */
function directOptions(
  signal: AbortSignal,
  call: TurnCall,
  sink: string | undefined,
): { signal: AbortSignal; serviceParameters: Record<string, string> } {
  return { signal, serviceParameters: sink === undefined ? { ...call.headers } : { ...call.headers, [DIRECT_KEY]: sink } };
}
