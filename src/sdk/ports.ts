import type { Message as SdkMessage, SendMessageRequest } from '@a2a-js/sdk';
import { Role } from '@a2a-js/sdk';
import { catchError, defer, from, map, of, switchMap, tap, throwError, type Observable } from 'rxjs';
import { A2AError, isA2AError, type A2AOperation } from '../errors.js';
import { unaryCall, streamCall, ResponseWatch } from './calls.js';
import { CardCache } from './card-cache.js';
import { cardUrlOf } from './card-fetch.js';
import type { CredentialsOption } from './credentials/options.js';
import { Credentials } from './credentials/scope.js';
import { loadAgent } from './load-agent.js';
import { silentLogger, type Logger } from '../logger.js';
import type { A2APort } from '../port/port.js';
import { sdkFactory, type ResolvedAgent } from './resolve-agent.js';
import { fromSdkEvent, fromSdkResult, fromSdkTask } from './map.js';
import { readStream, type StreamMapping } from './reader/json-rpc.js';
import { resubscribeRequest, streamRequest } from './reader/requests.js';
import { MAX_SSE_EVENT_CHARS } from './reader/sse.js';
import { isTerminal, type AgentEvent, type OutgoingMessage } from '../port/types.js';

/** A sign of life from our stream reader: it keeps the ladder's idle and first-event clocks going. */
const ALIVE: AgentEvent = { kind: 'alive' };

/** How our reader maps a stream's results: to agent events, with signs of life, ending at a settled task. */
const EVENTS: StreamMapping<AgentEvent> = { map: fromSdkEvent, alive: ALIVE, ends: isLastWord };

/** A sign of life is no answer: it neither settles the generation nor proves the other one. */
const isAlive = (value: unknown): boolean => (value as { kind?: unknown } | undefined)?.kind === 'alive';

/**
 * An event after which a stream has nothing more to say (the ladder stops listening there too): a
 * message-only answer, a terminal or input-required task. AUTH_REQUIRED is not one: the agent may resume.
 */
function isLastWord(event: AgentEvent): boolean {
  const state = event.kind === 'task' ? event.task.status.state : event.kind === 'status' ? event.status.state : undefined;
  if (event.kind === 'message') return event.message.taskId === undefined;
  return isTerminal(state) || state === 'input-required';
}

/** JSON-RPC's "method not found": the agent does not know this generation's method names. */
const METHOD_NOT_FOUND = -32601;

/** How the SDK-backed ports reach agents. */
export interface SdkPortOptions {
  /** The fetch used for every request; default the global `fetch` (on Node, pass `createNodeFetch()`). */
  fetch?: typeof fetch;
  /** `acceptedOutputModes` of every send: what the caller can render. Default `text/plain`, `text/markdown`. */
  outputModes?: readonly string[];
  /** Cards larger than this are refused. Default 1 MiB. */
  cardMaxBytes?: number;
  /**
   * Who reads JSON-RPC streams: `a4h` (default), the client's own tolerant reader, or `sdk`, the
   * official SDK's transport. Unary calls and HTTP+JSON always go through the SDK.
   */
  reader?: 'a4h' | 'sdk';
  /** Answers read whole (SendMessage, GetTask, CancelTask) larger than this fail with a protocol error. Default 64 MiB. */
  maxResponseBytes?: number;
  /** How long a card is cached when the server sends no `max-age`. Default 5 minutes. */
  cardTtlMs?: number;
  /** The longest a card is cached, whatever the server says. Default 1 hour. */
  cardMaxTtlMs?: number;
  /** The clock of the card cache's expiry, in milliseconds. Default `Date.now`; tests pass a fake one. */
  clock?: () => number;
  /** Credentials per agent (an origin or URL prefix): checked here, a bad entry throws a `config` error. */
  credentials?: CredentialsOption;
  /** Hears what the ports decide once (credentials not sent to another origin, an extended card refused). Silent by default. */
  logger?: Logger;
}

/** Makes the port of one agent, from its base URL or card URL. */
export type PortFactory = (agent: string) => A2APort;

/**
 * Ports backed by the official `@a2a-js/sdk` client: v1.0 and v0.3 agents, JSON-RPC preferred,
 * HTTP+JSON when it is the only binding. Ports made by one factory share one card cache, so
 * concurrent turns to an agent share one card fetch.
 */
export function createSdkPorts(options: SdkPortOptions = {}): PortFactory {
  const baseFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const watch = new ResponseWatch(baseFetch, options.maxResponseBytes ?? 64 * 2 ** 20);
  const loader = {
    baseFetch,
    callFetch: watch.fetch,
    factory: sdkFactory(watch.fetch),
    credentials: new Credentials(options.credentials, options.logger ?? silentLogger),
    cardMaxBytes: options.cardMaxBytes ?? 1024 * 1024,
    logger: options.logger ?? silentLogger,
  };
  const outputModes = [...(options.outputModes ?? ['text/plain', 'text/markdown'])];
  const ttl = { defaultTtlMs: options.cardTtlMs ?? 300_000, maxTtlMs: options.cardMaxTtlMs ?? 3_600_000, maxEntries: 256 };
  const cache = new CardCache<ResolvedAgent>(ttl, options.clock);
  const ownReader = (resolved: ResolvedAgent): boolean =>
    options.reader !== 'sdk' && resolved.summary.transport.toUpperCase() === 'JSONRPC';

  return (agent) => {
    let cardUrl: string | undefined;
    let badInput: A2AError | undefined;
    try {
      cardUrl = cardUrlOf(agent);
    } catch (error) {
      badInput = error as A2AError;
    }
    /**
     * The agent as this port's last `card()` resolved it, used by its other calls. `createA2A` makes a
     * port per turn, so a turn keeps the card it started with; turns sharing a port share the newest.
     */
    let current: ResolvedAgent | undefined;
    const card$ = defer((): Observable<ResolvedAgent> => {
      if (cardUrl === undefined) throw badInput;
      const url = cardUrl;
      return cache
        .get(url, () => unaryCall({ operation: 'card', agent: url, watch }, (signal) => loadAgent(loader, url, signal)))
        .pipe(tap((resolved) => (current = resolved)));
    });
    // A turn starts with card(); its stream, resubscribe, polls and CancelTask use that card, so a
    // `no-cache` card is fetched once per turn and a card endpoint failing mid-turn stops nothing.
    const agent$ = defer(() => (current === undefined ? card$ : of(current))).pipe(map((resolved) => resolved.switched ?? resolved));
    /**
     * A turn's first call. A -32601 (method not found) before any answer means the agent speaks the
     * other protocol generation than its card says: the call is made once more in the other one,
     * and an answer there is remembered for the agent (for as long as its card is cached).
     */
    const firstCall = <T>(call: (resolved: ResolvedAgent) => Observable<T>): Observable<T> =>
      agent$.pipe(
        switchMap((resolved) => {
          let answered = false;
          return call(resolved).pipe(
            tap((value) => {
              if (!isAlive(value)) answered = true;
            }),
            catchError((error: unknown) => {
              if (answered || !isA2AError(error, 'unsupported') || error.code !== METHOD_NOT_FOUND) return throwError(() => error);
              return from(resolved.otherGeneration()).pipe(
                switchMap((other) =>
                  call(other).pipe(
                    tap((value) => {
                      if (!isAlive(value)) resolved.switched = other;
                    }),
                  ),
                ),
              );
            }),
          );
        }),
      );
    const site = (operation: A2AOperation, resolved: ResolvedAgent) => ({
      operation,
      agent: resolved.summary.url,
      watch,
      auth: resolved.auth,
    });
    const reader = (resolved: ResolvedAgent) => ({ fetch: resolved.fetch, maxEventChars: MAX_SSE_EVENT_CHARS });
    const request = (resolved: ResolvedAgent, message: OutgoingMessage): SendMessageRequest => ({
      tenant: '', // the SDK puts the chosen interface's tenant on every request
      message: userMessage(message),
      configuration: {
        acceptedOutputModes: outputModes,
        // v0.3 servers read 0 as "all history"; 1 is the least they honour.
        historyLength: resolved.legacy ? 1 : 0,
        returnImmediately: false,
        taskPushNotificationConfig: undefined,
      },
      metadata: undefined,
    });

    return {
      card: () => card$.pipe(map((resolved) => resolved.summary)),
      send: (message) =>
        firstCall((resolved) =>
          unaryCall(site('send', resolved), (signal) => resolved.client.sendMessage(request(resolved, message), { signal })),
        ).pipe(map(fromSdkResult)),
      stream: (message) =>
        firstCall((resolved) => {
          const sdkRequest = request(resolved, message);
          if (ownReader(resolved)) {
            const wire = streamRequest(resolved, sdkRequest, message, sdkRequest.message?.messageId ?? '');
            return readStream(reader(resolved), wire, site('stream', resolved), EVENTS);
          }
          return streamCall(site('stream', resolved), (signal) => resolved.client.sendMessageStream(sdkRequest, { signal }), fromSdkEvent);
        }),
      resubscribe: (taskId) =>
        agent$.pipe(
          switchMap((resolved) =>
            ownReader(resolved)
              ? readStream(reader(resolved), resubscribeRequest(resolved, taskId), site('resubscribe', resolved), EVENTS)
              : streamCall(
                  site('resubscribe', resolved),
                  (signal) => resolved.client.resubscribeTask({ tenant: '', id: taskId }, { signal }),
                  fromSdkEvent,
                ),
          ),
        ),
      getTask: (taskId) =>
        agent$.pipe(
          switchMap((resolved) =>
            unaryCall(site('get-task', resolved), (signal) =>
              resolved.client.getTask({ tenant: '', id: taskId, historyLength: resolved.legacy ? 1 : 0 }, { signal }),
            ),
          ),
          map(fromSdkTask),
        ),
      cancel: (taskId) =>
        agent$.pipe(
          switchMap((resolved) =>
            unaryCall(site('cancel', resolved), (signal) =>
              resolved.client.cancelTask({ tenant: '', id: taskId, metadata: undefined }, { signal }),
            ),
          ),
          map(fromSdkTask),
        ),
    };
  };
}

/** The user's message: role user, one text part, a fresh messageId, the thread's ids. */
function userMessage(message: OutgoingMessage): SdkMessage {
  return {
    messageId: globalThis.crypto.randomUUID(),
    contextId: message.contextId ?? '',
    taskId: message.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: message.text }, metadata: undefined, filename: '', mediaType: 'text/plain' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}
