import { from, Observable, switchMap, tap, type Subscriber } from 'rxjs';
import { A2AError } from '../errors.js';
import { contextIdDeriver } from '../identity/context-id.js';
import { rememberThread } from '../identity/remember.js';
import { identitySecret, warnOnDerive } from '../identity/secret.js';
import { ThreadRegistry } from '../identity/threads.js';
import { silentLogger, type Logger } from '../logger.js';
import { redactQuery } from '../port/card-url.js';
import type { TurnEvent } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import type { CardSummary } from '../port/types.js';
import { createSdkPorts, type GrpcSupport } from '../sdk/ports.js';
import { TurnTelemetry } from '../telemetry/turn.js';
import { resolvePolicy, type TurnPolicy } from '../turn/policy.js';
import { afterDelivered } from '../render/position.js';
import { resumeThread } from '../turn/resume.js';
import { runCheckedTurn, runResume, type LadderOptions, type TurnRequest } from '../turn/turn.js';
import { within } from '../turn/watchdog.js';
import { CancelsInFlight } from './cancels.js';
import { agentKey, checkInput, checkResumeInput } from './input.js';
import type { A2AClient, A2AOptions, LeaveMode, ResumeInput, TurnInput } from './types.js';

/** The ladder's options as the client sets them for a turn. */
type Ladder = LadderOptions & { policy: TurnPolicy; logger: Logger };

export type { A2AClient, A2AOptions, CloseOptions, LeaveMode, ResumeInput, TurnInput } from './types.js';

/** What a platform entry (the Node one) hands the core client: a resource it owns, a faster deriver. */
export interface ClientPlatform {
  owned?: { close(): Promise<void> };
  /** gRPC support (the Node entry's): gRPC interfaces are chosen only with it. */
  grpc?: GrpcSupport;
  deriver?: (secret: string | Uint8Array) => (handle: string, conversationKey: string) => string | Promise<string>;
}

/**
 * The client: each turn derives its thread's contextId, runs the ladder and remembers the thread
 * (a contextId the agent replaced, a task it left waiting for the thread's next message).
 * `close()` lets the CancelTasks of abandoned turns reach their agents. On Node, the `createA2A` of
 * `a4h-a2a/node` adds the identity secret from the environment and a pooled HTTP client.
 */
export function createA2A(options: A2AOptions = {}): A2AClient {
  return createClient(options);
}

/**
 * The client facade: derive each thread's contextId → run the ladder → remember the thread.
 *
 * What the thread remembers lives in a bounded in-memory registry: a contextId the agent replaced
 * ours with (the guard) and an interrupted task, whose id goes on the thread's next message (a
 * finished one never does); see `rememberThread`. `close()` lets the CancelTasks of abandoned
 * turns reach their agents. A platform entry (the Node one) passes what it adds in `platform`.
 */
export function createClient(options: A2AOptions = {}, platform: ClientPlatform = {}): A2AClient {
  const logger = options.logger ?? silentLogger;
  const derive = warnOnDerive(
    options.identitySecret,
    logger,
    (platform.deriver ?? contextIdDeriver)(identitySecret(options.identitySecret)),
  );
  const policy = resolvePolicy(options.policy);
  // A port per turn: making one costs about a microsecond (a URL parse), and the card cache behind
  // every port of this factory is shared, so no port cache.
  const sdkPorts =
    options.ports === undefined
      ? createSdkPorts({
          ...(options.fetch ? { fetch: options.fetch } : {}),
          ...(options.capabilities?.outputModes ? { outputModes: options.capabilities.outputModes } : {}),
          ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
          ...(options.credentials ? { credentials: options.credentials } : {}),
          ...(options.trust ? { trust: options.trust } : {}),
          ...(options.extensions ? { extensions: options.extensions } : {}),
          ...(options.bindings ? { bindings: options.bindings } : {}),
          ...(platform.grpc ? { grpc: platform.grpc } : {}),
          logger,
        })
      : undefined;
  const ports = options.ports ?? sdkPorts!;
  const maxThreads = options.maxThreads ?? 10_000;
  const threads = new ThreadRegistry(maxThreads);
  /** The threads whose first message in this process asked the agent for a task it left waiting. */
  const lookedUp = new Set<string>();
  /** Marks a thread as looked up; bounded: a thread asked again costs one ListTasks. */
  const markLookedUp = (key: string): void => {
    if (lookedUp.size >= maxThreads) lookedUp.clear();
    lookedUp.add(key);
  };
  const cancels = new CancelsInFlight();
  // Only with the option: without it a turn is exactly what it was (no operator, no per-event work).
  const telemetry = options.telemetry ? new TurnTelemetry(options.telemetry) : undefined;
  /** Set by `close({ detach: true })`: the turns it ends hand their tasks over (no CancelTask). */
  let detaching = false;
  /** Set by `close()`: a turn it ends is abandoned (cancelled) even with `onLeave: 'detach'`, unless it detaches. */
  let closed = false;
  const ladder: Ladder = {
    policy,
    logger,
    onCancel: cancels.track,
    detached: () => detaching,
    ...(options.random ? { random: options.random } : {}),
  };
  /** The subscribers of the turns running now, so `close({ detach: true })` can end them. */
  const running = new Set<Subscriber<TurnEvent>>();
  /** A thread's turn on the agent's port (with the turn's extensions): traced when the client has telemetry. */
  const onPort = (
    input: { agent: string; handle: string; extensions?: readonly string[] },
    run: (port: A2APort) => Observable<TurnEvent>,
  ): Observable<TurnEvent> => {
    const extensions = input.extensions?.length ? input.extensions : undefined;
    if (telemetry === undefined) return run(ports(input.agent, extensions && { extensions }));
    return telemetry.turn(input.agent, input.handle, (headers, traced) =>
      run(
        traced(ports(input.agent, headers || extensions ? { ...(headers && { headers }), ...(extensions && { extensions }) } : undefined)),
      ),
    );
  };

  /** What a thread remembers of a turn (see {@link rememberThread}); an adopted contextId is logged once. */
  const remembered = (input: { agent: string; handle: string }, key: string, sent: { contextId: string; taskId?: string }) =>
    rememberThread(threads, key, sent, (adopted) =>
      logger.warn(
        { agent: redactQuery(input.agent), handle: input.handle, sent: sent.contextId, adopted },
        "the agent replaced the contextId; this thread now uses the agent's",
      ),
    );

  /**
   * `body` with the thread's contextId: the input's, the one the thread adopted, or the derived one.
   * A contextId known at once (explicit, adopted, or derived synchronously) needs no promise hop.
   */
  const withContextId = (
    input: { handle: string; thread: string; contextId?: string },
    key: string,
    body: (contextId: string) => Observable<TurnEvent>,
  ): Observable<TurnEvent> => {
    const contextId = input.contextId ?? threads.get(key)?.adoptedContextId ?? derive(input.handle, input.thread);
    return typeof contextId === 'string' ? body(contextId) : from(contextId).pipe(switchMap(body));
  };

  /** The ladder for one thread's message, remembered by the thread. */
  const threadTurn = (input: TurnInput, key: string, contextId: string, turnLadder: Ladder): Observable<TurnEvent> => {
    const interrupted = threads.takeInterrupted(key);
    const taskId = input.taskId ?? interrupted;
    const request: TurnRequest & { contextId: string } = { text: input.text, contextId, ...(taskId ? { taskId } : {}) };
    if (input.files?.length) request.files = input.files;
    if (input.data?.length) request.data = input.data;
    // The thread's first message in this process asks the agent for a task it left waiting (once).
    const look = policy.continueInterrupted && taskId === undefined && !lookedUp.has(key);
    if (look) markLookedUp(key);
    const options = look ? { ...turnLadder, lookForWaitingTask: true } : turnLadder;
    return onPort(input, (port) => runCheckedTurn(port, request, options).pipe(remembered(input, key, request)));
  };

  /** A thread's reply in flight, followed: its task by id, or found by the thread's contextId. */
  const threadResume = (input: ResumeInput, key: string, contextId: string, turnLadder: Ladder): Observable<TurnEvent> =>
    onPort(input, (port) => {
      const taskId = input.from?.taskId ?? input.taskId;
      const resumed$ =
        taskId === undefined ? resumeThread(port, contextId, turnLadder) : runResume(port, { taskId, contextId }, turnLadder);
      const rest$ = input.from === undefined ? resumed$ : resumed$.pipe(afterDelivered(input.from.delivered));
      // A thread resumed to its end was looked up: a task left waiting is remembered, so its next message need not ask.
      const looked$ =
        taskId === undefined
          ? rest$.pipe(
              tap((event) => {
                if (event.type === 'end') markLookedUp(key);
              }),
            )
          : rest$;
      return looked$.pipe(remembered(input, key, { contextId }));
    });

  /**
   * `run` after the input is checked (a check's error comes after `start`, as a turn's does), its
   * subscriber counted among the running ones while it runs (`close({ detach: true })` ends them).
   * One object per turn: the check and the count in one subscribe. With `onLeave: 'detach'` the
   * turn's ladder is told it is detached once its subscriber leaves before its end (not on its own
   * error or completion, so a deadline still cancels).
   */
  const checked = (
    input: { onLeave?: LeaveMode },
    check: () => string,
    run: (key: string, turnLadder: Ladder) => Observable<TurnEvent>,
  ): Observable<TurnEvent> =>
    new Observable<TurnEvent>((subscriber) => {
      const detachOnLeave = input.onLeave === 'detach';
      /** The subscriber left before the turn ended (only tracked for `onLeave: 'detach'`). */
      let left = false;
      let turn$: Observable<TurnEvent>;
      try {
        turn$ = run(check(), detachOnLeave ? { ...ladder, detached: () => detaching || (left && !closed) } : ladder);
      } catch (error) {
        subscriber.next({ type: 'start' });
        subscriber.error(error);
        return undefined;
      }
      running.add(subscriber);
      if (!detachOnLeave) {
        const subscription = turn$.subscribe(subscriber);
        return () => {
          running.delete(subscriber);
          subscription.unsubscribe();
        };
      }
      let ended = false;
      const subscription = turn$.subscribe({
        next: (event) => subscriber.next(event),
        error: (error: unknown) => {
          ended = true;
          subscriber.error(error);
        },
        complete: () => {
          ended = true;
          subscriber.complete();
        },
      });
      return () => {
        running.delete(subscriber);
        left = !ended;
        subscription.unsubscribe();
      };
    });

  return {
    turn: (input) =>
      checked(
        input,
        () => ThreadRegistry.key(checkInput(input, policy.maxAttachmentBytes), input.handle, input.thread),
        (key, turnLadder) => withContextId(input, key, (contextId) => threadTurn(input, key, contextId, turnLadder)),
      ),
    resume: (input) =>
      checked(
        input,
        () => ThreadRegistry.key(checkResumeInput(input), input.handle, input.thread),
        (key, turnLadder) => withContextId(input, key, (contextId) => threadResume(input, key, contextId, turnLadder)),
      ),
    card: (agent) =>
      ports(agent)
        .card()
        .pipe(within<CardSummary>(policy.cardTimeoutMs, 'card', 'card')),
    contextId: async (handle, thread) => derive(handle, thread),
    thread: (agent, handle, thread) => {
      const url = agentKey(agent);
      return url === undefined ? undefined : threads.get(ThreadRegistry.key(url, handle, thread));
    },
    close: async (closing = {}) => {
      if (closing.detach === true) detaching = true;
      closed = true;
      // A turn still running ends now: handed over (detach), or abandoned, its task cancelled as any left turn's.
      const ended = new A2AError({
        kind: 'aborted',
        operation: 'turn',
        message: detaching
          ? 'the client closed to hand its turns over: the task goes on at the agent; resume it from another process'
          : 'the client closed while the turn ran: its task was cancelled',
      });
      for (const subscriber of [...running]) subscriber.error(ended);
      await cancels.settled();
      await sdkPorts?.close();
      await platform.owned?.close();
    },
  };
}
