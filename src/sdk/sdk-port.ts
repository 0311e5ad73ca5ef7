import {
  defer,
  from,
  map,
  Observable,
  switchMap,
  tap,
  throwError,
  type MonoTypeOperatorFunction,
  type Observer,
  type Subscriber,
} from 'rxjs';
import { A2AError, isA2AError, type A2AOperation } from '../errors.js';
import { NO_EXTENSIONS } from '../port/extensions.js';
import { METHOD_NOT_FOUND } from '../port/codes.js';
import { redactQuery } from '../port/card-url.js';
import type { A2APort, Caller, ListTasksOptions, TaskPage, GenerationWait } from '../port/port.js';
import type { NewPushConfig, PushConfig, PushConfigPage, PushConfigPort } from '../port/push-configs.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../port/types.js';
import type { CardSummary } from '../port/card.js';
import { unaryCall } from './wire/transports/calls.js';
import type { CardCache } from './agent/card/cache.js';
import type { CardValidators } from './agent/card/fetch.js';
import { loadAgent, type AgentLoader } from './agent/load.js';
import { BINDINGS } from './wire/bindings/registry.js';
import type { ResolvedAgent } from './agent/resolve.js';
import { extensionHeaders } from './http/extensions/headers.js';
import { a2uiOffer, withA2UIExtension, withA2UIMetadata, type A2UIOption } from '../port/a2ui-option.js';
import { missingExtensions } from './http/extensions/required.js';
import { capabilityMissing } from './agent/capabilities.js';
import { firstDraftRefusal } from './agent/first-draft.js';
import type { TurnCall } from './wire/transports/transport.js';

/** What every port of one factory shares: the card cache and how agents are loaded (and so called). */
export interface PortShared {
  cache: CardCache<ResolvedAgent, CardValidators>;
  loader: AgentLoader;
  /** What the app renders of A2UI, when it said (`a2ui`): taken up with each agent whose card offers it. */
  a2ui?: A2UIOption | undefined;
}

/** A -32601 (method not found: every binding's), or a binding's own sign (gRPC's UNIMPLEMENTED): the call met the other protocol generation. */
const otherGenerationSaid = (error: A2AError): boolean =>
  error.code === METHOD_NOT_FOUND || BINDINGS.some((binding) => binding.otherGeneration?.(error) === true);

/** A sign of life is no answer: it neither settles the generation nor proves the other one. */
const isAlive = (value: unknown): boolean => (value as { kind?: unknown } | undefined)?.kind === 'alive';

const summaryOf = (resolved: ResolvedAgent): CardSummary => resolved.summary;

/**
 * The port of one agent: each call goes to the transport its resolved agent chose
 * (`transports/`), with the turn's headers. `createA2A` makes one per turn, so it is a class: its
 * methods live on the prototype and a turn pays for one small object.
 */
export class SdkPort implements A2APort, PushConfigPort {
  /**
   * The agent as this port's last `card()` resolved it (or as its first call found it speaks), used by
   * its other calls. `createA2A` makes a port per turn, so a turn keeps the card it started with.
   */
  private current: ResolvedAgent | undefined;

  /** The turn's part of each call in each generation: its headers with its extensions', its caller (made at the first call of each). */
  private readonly turnCalls: { modern?: TurnCall; legacy?: TurnCall } = {};

  /**
   * `cardUrl`, or the `input` error the agent's URL gave (every call fails with it); `headers`, the
   * turn's own headers on each call but the card's (its trace context, with telemetry);
   * `extensions`, the URIs each of those calls activates (the agent's and the turn's, checked);
   * `caller`, whom those calls are for (their credentials are made for them); `fromBase`, the caller
   * gave a base URL, not a card URL (a 404 at the well-known path tries the old one).
   */
  constructor(
    private readonly shared: PortShared,
    private readonly cardUrl: string | A2AError,
    private readonly headers?: Readonly<Record<string, string>>,
    private readonly extensions: readonly string[] = NO_EXTENSIONS,
    private readonly caller?: Caller,
    private readonly fromBase = false,
  ) {}

  card(): Observable<CardSummary> {
    return this.resolve().pipe(map(summaryOf));
  }

  send(message: OutgoingMessage): Observable<SendResult> {
    return this.firstCall('send', (agent) => agent.transport.send(withA2UIMetadata(message, this.a2uiOf(agent)), this.callOf(agent)));
  }

  stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.firstCall('stream', (agent) => agent.transport.stream(withA2UIMetadata(message, this.a2uiOf(agent)), this.callOf(agent)));
  }

  resubscribe(taskId: string): Observable<AgentEvent> {
    return this.withAgent('resubscribe', (resolved) => resolved.transport.resubscribe(taskId, this.callOf(resolved)));
  }

  getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    return this.withAgent('get-task', (resolved) => resolved.transport.getTask(taskId, this.callOf(resolved), historyLength, wait));
  }

  cancel(taskId: string): Observable<Task> {
    return this.withAgent('cancel', (resolved) => resolved.transport.cancel(taskId, this.callOf(resolved)));
  }

  listTasks(contextId: string, options: ListTasksOptions = {}): Observable<TaskPage> {
    return this.withAgent('list-tasks', (resolved) => resolved.transport.listTasks(contextId, options, this.callOf(resolved)));
  }

  createPushConfig(config: NewPushConfig): Observable<PushConfig> {
    return this.withAgent('push-config', (resolved) => resolved.transport.createPushConfig(config, this.callOf(resolved)));
  }

  getPushConfig(taskId: string, configId: string): Observable<PushConfig> {
    return this.withAgent('push-config', (resolved) => resolved.transport.getPushConfig(taskId, configId, this.callOf(resolved)));
  }

  listPushConfigs(taskId: string, page: { pageSize?: number; pageToken?: string } = {}): Observable<PushConfigPage> {
    return this.withAgent('push-config', (resolved) => resolved.transport.listPushConfigs(taskId, page, this.callOf(resolved)));
  }

  deletePushConfig(taskId: string, configId: string): Observable<true> {
    return this.withAgent('push-config', (resolved) => resolved.transport.deletePushConfig(taskId, configId, this.callOf(resolved)));
  }

  /**
   * The turn's part of a call to `resolved`: its headers, with the extensions header of its
   * generation, and its caller. Made once per generation for the turn (a port is a turn's), the same
   * object on every call after.
   */
  private callOf(resolved: ResolvedAgent): TurnCall {
    return (this.turnCalls[resolved.legacy ? 'legacy' : 'modern'] ??= this.turnCall(resolved));
  }

  private turnCall(resolved: ResolvedAgent): TurnCall {
    const extensions = withA2UIExtension(this.extensions, this.a2uiOf(resolved));
    const headers = extensions.length === 0 ? this.headers : { ...this.headers, ...extensionHeaders(extensions, resolved.legacy) };
    return { ...(headers && { headers }), ...(this.caller && { caller: this.caller }) };
  }

  /** The A2UI extension this turn takes up with the agent (the `a2ui` option and a card that offers it), if any. */
  private a2uiOf(resolved: ResolvedAgent): ReturnType<typeof a2uiOffer> {
    return this.shared.a2ui === undefined ? undefined : a2uiOffer(resolved.summary, this.shared.a2ui);
  }

  /** The agent from the shared card cache (one load for concurrent turns), remembered as this port's. */
  private resolve(): Observable<ResolvedAgent> {
    return defer((): Observable<ResolvedAgent> => {
      const url = this.cardUrl;
      if (typeof url !== 'string') throw url;
      const { cache, loader } = this.shared;
      return cache
        .get(url, (stale) =>
          unaryCall({ operation: 'card', agent: redactQuery(url), watch: loader.watch }, (signal) =>
            loadAgent(loader, url, signal, stale, this.fromBase),
          ),
        )
        .pipe(tap((resolved) => (this.current = resolved)));
    });
  }

  /**
   * `use` with the agent this port's calls use. A turn starts with card(); its stream, resubscribe,
   * polls and CancelTask use that card (at once, with no operator in between), so a `no-cache` card is
   * fetched once per turn and a card endpoint failing mid-turn stops nothing. A card that requires an
   * extension the turn does not activate fails the call with an `input` error naming it, and a push
   * call to an agent whose card offers no push notifications fails as the agent would answer it, both
   * before anything is sent.
   */
  private withAgent<T>(operation: A2AOperation, use: (resolved: ResolvedAgent) => Observable<T>): Observable<T> {
    const checked = (resolved: ResolvedAgent): Observable<T> => {
      const missing = missingExtensions(resolved.summary, this.extensions, operation) ?? capabilityMissing(resolved.summary, operation);
      return missing === undefined ? use(resolved) : throwError(() => missing);
    };
    return defer(() => (this.current === undefined ? this.resolve().pipe(switchMap(checked)) : checked(this.current)));
  }

  /**
   * A turn's first call. A -32601 (method not found; gRPC UNIMPLEMENTED) before any answer means the agent speaks the
   * other protocol generation than its card says: the call is made once more in the other one, and
   * an answer there makes that generation this port's and, in the card cache, the agent's (for as
   * long as its card is cached).
   */
  private firstCall<T>(operation: A2AOperation, call: (resolved: ResolvedAgent) => Observable<T>): Observable<T> {
    return this.withAgent(operation, (resolved) =>
      call(resolved).pipe(
        orOtherGeneration(resolved, call, (other) => {
          this.current = other;
          if (typeof this.cardUrl === 'string') this.shared.cache.replace(this.cardUrl, resolved, other);
        }),
      ),
    );
  }
}

/**
 * A -32601 (on gRPC, UNIMPLEMENTED) before any answer (a sign of life is none): the call once more in
 * the agent's other protocol generation; `answered` hears of the other one at its first answer. One
 * hop on the way of every event of a turn's first call.
 */
function orOtherGeneration<T>(
  resolved: ResolvedAgent,
  call: (resolved: ResolvedAgent) => Observable<T>,
  answered: (other: ResolvedAgent) => void,
): MonoTypeOperatorFunction<T> {
  return (source) => new Observable<T>((subscriber) => source.subscribe(new OrOtherGeneration(subscriber, resolved, call, answered)));
}

/** {@link orOtherGeneration}'s observer: methods, not three closures per call (a turn's stream holds one). */
class OrOtherGeneration<T> implements Observer<T> {
  private spoke = false;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly resolved: ResolvedAgent,
    private readonly call: (resolved: ResolvedAgent) => Observable<T>,
    private readonly answered: (other: ResolvedAgent) => void,
  ) {}

  next(value: T): void {
    if (!isAlive(value)) this.spoke = true;
    this.subscriber.next(value);
  }

  error(error: unknown): void {
    const { subscriber, call, answered } = this;
    // An agent of the first A2A draft refuses the call by its method's name: said as what it is.
    const draft = this.spoke ? undefined : firstDraftRefusal(this.resolved, error);
    if (draft !== undefined) return subscriber.error(draft);
    if (this.spoke || !isA2AError(error, 'unsupported') || !otherGenerationSaid(error)) return subscriber.error(error);
    // The retry is added to `subscriber`, so the consumer's leaving ends it too.
    from(this.resolved.otherGeneration())
      .pipe(switchMap((other) => call(other).pipe(tap(whenAnswered(() => answered(other))))))
      .subscribe(subscriber);
  }

  complete(): void {
    this.subscriber.complete();
  }
}

/** Calls `once` at the first value that is an answer (not a sign of life). */
function whenAnswered<T>(once: () => void): (value: T) => void {
  let told = false;
  return (value) => {
    if (told || isAlive(value)) return;
    told = true;
    once();
  };
}
