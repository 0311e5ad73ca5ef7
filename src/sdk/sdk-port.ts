import type { Message as SdkMessage, SendMessageRequest } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import { defer, from, map, Observable, switchMap, tap, type MonoTypeOperatorFunction } from 'rxjs';
import { A2AError, isA2AError, type A2AOperation } from '../errors.js';
import type { A2APort } from '../port/port.js';
import { endsStream, type AgentEvent, type CardSummary, type OutgoingMessage, type SendResult, type Task } from '../port/types.js';
import { streamCall, unaryCall, type ResponseWatch } from './calls.js';
import type { CardCache } from './card-cache.js';
import { loadAgent, type AgentLoader } from './load-agent.js';
import { fromSdkEvent, fromSdkResult, fromSdkTask } from './map.js';
import { fastEvent } from './reader/fast.js';
import { readStream, type ReaderOptions, type StreamMapping } from './reader/json-rpc.js';
import { resubscribeRequest, streamRequest } from './reader/requests.js';
import { MAX_SSE_EVENT_CHARS } from './reader/sse.js';
import { sdkParts } from './parts-out.js';
import type { ResolvedAgent } from './resolve-agent.js';

/** What every port of one factory shares: the card cache, how agents are loaded and called, the output modes. */
export interface PortShared {
  cache: CardCache<ResolvedAgent>;
  loader: AgentLoader;
  watch: ResponseWatch;
  outputModes: string[];
  /** JSON-RPC streams are read by the SDK's transport instead of ours. */
  sdkReader: boolean;
}

/** A sign of life from our stream reader: it keeps the ladder's idle and first-event clocks going. */
const ALIVE: AgentEvent = { kind: 'alive' };

/** How our reader maps a stream's results: to agent events (the common v1.0 shapes straight from JSON), with signs of life, ending at a settled task. */
const EVENTS: StreamMapping<AgentEvent> = { map: fromSdkEvent, fast: fastEvent, alive: ALIVE, ends: isLastWord };

/** A sign of life is no answer: it neither settles the generation nor proves the other one. */
const isAlive = (value: unknown): boolean => (value as { kind?: unknown } | undefined)?.kind === 'alive';

/** An event after which a stream has nothing more to say, as the ladder's `TurnTask.streamDone` judges it. */
function isLastWord(event: AgentEvent): boolean {
  if (event.kind === 'message') return event.message.taskId === undefined;
  return endsStream(event.kind === 'task' ? event.task.status.state : event.kind === 'status' ? event.status.state : undefined);
}

/** JSON-RPC's "method not found": the agent does not know this generation's method names. */
const METHOD_NOT_FOUND = -32601;

const summaryOf = (resolved: ResolvedAgent): CardSummary => resolved.summary;
/** The agent in the generation it answered in, when that is not its card's. */
const spoken = (resolved: ResolvedAgent): ResolvedAgent => resolved.switched ?? resolved;

/**
 * The port of one agent on the official SDK's client (and our stream reader). `createA2A` makes one
 * per turn, so it is a class: its methods live on the prototype and a turn pays for one small object.
 */
export class SdkPort implements A2APort {
  /**
   * The agent as this port's last `card()` resolved it, used by its other calls. `createA2A` makes a
   * port per turn, so a turn keeps the card it started with; turns sharing a port share the newest.
   */
  private current: ResolvedAgent | undefined;

  /**
   * `cardUrl`, or the `input` error the agent's URL gave (every call fails with it); `headers`, the
   * turn's own headers on each call but the card's (its trace context, with telemetry).
   */
  constructor(
    private readonly shared: PortShared,
    private readonly cardUrl: string | A2AError,
    private readonly headers?: Readonly<Record<string, string>>,
  ) {}

  card(): Observable<CardSummary> {
    return this.resolve().pipe(map(summaryOf));
  }

  send(message: OutgoingMessage): Observable<SendResult> {
    return this.firstCall((resolved) =>
      unaryCall(this.site('send', resolved), (signal) =>
        resolved.client.sendMessage(this.request(resolved, message), this.callOptions(signal)),
      ),
    ).pipe(map(fromSdkResult));
  }

  stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.firstCall((resolved) => {
      const sdkRequest = this.request(resolved, message);
      if (this.ownReader(resolved)) {
        const wire = streamRequest(resolved, sdkRequest, message, sdkRequest.message?.messageId ?? '');
        return readStream(this.reader(resolved), wire, this.site('stream', resolved), EVENTS);
      }
      return streamCall(
        this.site('stream', resolved),
        (signal) => resolved.client.sendMessageStream(sdkRequest, this.callOptions(signal)),
        fromSdkEvent,
      );
    });
  }

  resubscribe(taskId: string): Observable<AgentEvent> {
    return this.withAgent((resolved) =>
      this.ownReader(resolved)
        ? readStream(this.reader(resolved), resubscribeRequest(resolved, taskId), this.site('resubscribe', resolved), EVENTS)
        : streamCall(
            this.site('resubscribe', resolved),
            (signal) => resolved.client.resubscribeTask({ tenant: '', id: taskId }, this.callOptions(signal)),
            fromSdkEvent,
          ),
    );
  }

  getTask(taskId: string): Observable<Task> {
    return this.withAgent((resolved) =>
      unaryCall(this.site('get-task', resolved), (signal) =>
        resolved.client.getTask({ tenant: '', id: taskId, historyLength: resolved.legacy ? 1 : 0 }, this.callOptions(signal)),
      ),
    ).pipe(map(fromSdkTask));
  }

  cancel(taskId: string): Observable<Task> {
    return this.withAgent((resolved) =>
      unaryCall(this.site('cancel', resolved), (signal) =>
        resolved.client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, this.callOptions(signal)),
      ),
    ).pipe(map(fromSdkTask));
  }

  /** The agent from the shared card cache (one load for concurrent turns), remembered as this port's. */
  private resolve(): Observable<ResolvedAgent> {
    return defer((): Observable<ResolvedAgent> => {
      const url = this.cardUrl;
      if (typeof url !== 'string') throw url;
      const { cache, loader, watch } = this.shared;
      return cache
        .get(url, () => unaryCall({ operation: 'card', agent: url, watch }, (signal) => loadAgent(loader, url, signal)))
        .pipe(tap((resolved) => (this.current = resolved)));
    });
  }

  /**
   * `use` with the agent this port's calls use. A turn starts with card(); its stream, resubscribe,
   * polls and CancelTask use that card (at once, with no operator in between), so a `no-cache` card is
   * fetched once per turn and a card endpoint failing mid-turn stops nothing.
   */
  private withAgent<T>(use: (resolved: ResolvedAgent) => Observable<T>): Observable<T> {
    return defer(() =>
      this.current === undefined ? this.resolve().pipe(switchMap((resolved) => use(spoken(resolved)))) : use(spoken(this.current)),
    );
  }

  /**
   * A turn's first call. A -32601 (method not found) before any answer means the agent speaks the
   * other protocol generation than its card says: the call is made once more in the other one,
   * and an answer there is remembered for the agent (for as long as its card is cached).
   */
  private firstCall<T>(call: (resolved: ResolvedAgent) => Observable<T>): Observable<T> {
    return this.withAgent((resolved) => call(resolved).pipe(orOtherGeneration(resolved, call)));
  }

  /** A call's SDK options: its abort signal, and the turn's headers when it has any. */
  private callOptions(signal: AbortSignal): { signal: AbortSignal; serviceParameters?: Record<string, string> } {
    return this.headers === undefined ? { signal } : { signal, serviceParameters: { ...this.headers } };
  }

  /** How our reader reaches the agent: its own fetch (credentials on its origin), the SSE event bound, the turn's headers. */
  private reader(resolved: ResolvedAgent): ReaderOptions {
    const options: ReaderOptions = { fetch: resolved.fetch, maxEventChars: MAX_SSE_EVENT_CHARS };
    if (this.headers !== undefined) options.headers = this.headers;
    return options;
  }

  private ownReader(resolved: ResolvedAgent): boolean {
    return !this.shared.sdkReader && resolved.summary.transport.toUpperCase() === 'JSONRPC';
  }

  private site(operation: A2AOperation, resolved: ResolvedAgent) {
    return { operation, agent: resolved.summary.url, watch: this.shared.watch, auth: resolved.auth };
  }

  private request(resolved: ResolvedAgent, message: OutgoingMessage): SendMessageRequest {
    return {
      tenant: '', // the SDK puts the chosen interface's tenant on every request
      message: userMessage(message),
      configuration: {
        acceptedOutputModes: this.shared.outputModes,
        // v0.3 servers read 0 as "all history"; 1 is the least they honour.
        historyLength: resolved.legacy ? 1 : 0,
        returnImmediately: false,
        taskPushNotificationConfig: undefined,
      },
      metadata: undefined,
    };
  }
}

/**
 * A -32601 before any answer (a sign of life is none): the call once more in the agent's other
 * protocol generation, remembered for the agent when it answers there. One hop on the way of every
 * event of a turn's first call.
 */
function orOtherGeneration<T>(resolved: ResolvedAgent, call: (resolved: ResolvedAgent) => Observable<T>): MonoTypeOperatorFunction<T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      let answered = false;
      return source.subscribe({
        next: (value) => {
          if (!isAlive(value)) answered = true;
          subscriber.next(value);
        },
        error: (error: unknown) => {
          if (answered || !isA2AError(error, 'unsupported') || error.code !== METHOD_NOT_FOUND) return subscriber.error(error);
          // The retry is added to `subscriber`, so the consumer's leaving ends it too.
          from(resolved.otherGeneration())
            .pipe(
              switchMap((other) =>
                call(other).pipe(
                  tap((value) => {
                    if (!isAlive(value)) resolved.switched = other;
                  }),
                ),
              ),
            )
            .subscribe(subscriber);
        },
        complete: () => subscriber.complete(),
      });
    });
}

/** The user's message: role user, its text part (then its files and data), a fresh messageId, the thread's ids. */
function userMessage(message: OutgoingMessage): SdkMessage {
  return {
    messageId: globalThis.crypto.randomUUID(),
    contextId: message.contextId ?? '',
    taskId: message.taskId ?? '',
    role: Role.ROLE_USER,
    parts: sdkParts(message),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
