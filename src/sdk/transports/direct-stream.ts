import type { StreamResponse } from '@a2a-js/sdk';
import { Observable } from 'rxjs';
import type { AgentEvent, OutgoingMessage } from '../../port/types.js';
import { DIRECT_KEY, openDelivery } from '../bindings/grpc/direct.js';
import { classifySdkError } from '../classify/sdk-errors.js';
import { fromSdkEvent } from '../mapping/from-sdk.js';
import type { CallSite } from './calls.js';
import { SdkClientTransport } from './sdk-client.js';
import type { TurnHeaders } from './transport.js';

/** A stream call's SDK options: its abort signal, and its service parameters (the turn's headers and the sink's key). */
type StreamOptions = { signal: AbortSignal; serviceParameters: Record<string, string> };

/**
 * A v1.0 gRPC agent whose streams' messages are handed straight to the turn (`bindings/grpc/direct.ts`):
 * each call still goes through the SDK's client (its interceptors, its metadata, its tenant, its status
 * and errors), only the messages skip its async iterators. Unary calls go through the SDK like any other.
 */
export class DirectStreamTransport extends SdkClientTransport {
  override stream(message: OutgoingMessage, headers: TurnHeaders): Observable<AgentEvent> {
    const request = this.request(message);
    return directStreamCall(this.site('stream'), headers, (options) => this.client.sendMessageStream(request, options));
  }

  override resubscribe(taskId: string, headers: TurnHeaders): Observable<AgentEvent> {
    return directStreamCall(this.site('resubscribe'), headers, (options) =>
      this.client.resubscribeTask({ tenant: '', id: taskId }, options),
    );
  }
}

/**
 * One SDK stream as a cold Observable of mapped events, its messages delivered directly: a sink is
 * opened for the call and named in its service parameters; what still comes through the SDK's iterable
 * (nothing, unless the call was answered another way) is mapped the same. As `streamCall`: unsubscribing
 * aborts the call (and so does a malformed event, which fails the turn), a graceful close completes, a
 * drop errors, classified.
 */
function directStreamCall(
  site: CallSite,
  headers: TurnHeaders,
  open: (options: StreamOptions) => AsyncIterable<StreamResponse>,
): Observable<AgentEvent> {
  return new Observable<AgentEvent>((subscriber) => {
    const controller = new AbortController();
    let ended = false;
    const fail = (error: unknown): void => {
      if (subscriber.closed || controller.signal.aborted) return;
      subscriber.error(classifySdkError(error, { ...site, status: site.watch.statusOf(controller.signal) }));
    };
    const deliver = (event: StreamResponse): void => {
      if (subscriber.closed) return;
      try {
        subscriber.next(fromSdkEvent(event));
      } catch (error) {
        fail(error);
      }
    };
    const delivery = openDelivery(deliver as (message: unknown) => void);
    const options = { signal: controller.signal, serviceParameters: { ...headers, [DIRECT_KEY]: delivery.key } };
    const pump = async (): Promise<void> => {
      for await (const event of open(options)) deliver(event);
      ended = true;
      subscriber.complete();
    };
    pump().catch((error: unknown) => {
      ended = true;
      fail(error);
    });
    return () => {
      delivery.close();
      if (!ended) controller.abort();
    };
  });
}
