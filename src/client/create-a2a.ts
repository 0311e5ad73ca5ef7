import { from, Observable, switchMap, tap } from 'rxjs';
import { contextIdDeriver } from '../identity/context-id.js';
import { rememberThread, type ThreadTurnStart } from '../identity/remember.js';
import { identitySecret, warnOnDerive } from '../identity/secret.js';
import { ThreadRegistry } from '../identity/threads.js';
import { silentLogger } from '../logger.js';
import { redactQuery } from '../port/card-url.js';
import type { TurnEvent } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import type { CardSummary } from '../port/card.js';
import { agentReach, createSdkPorts, type GrpcSupport } from '../sdk/ports.js';
import { TurnTelemetry } from '../telemetry/turn.js';
import { MAX_TIMER_MS, resolvePolicy } from '../turn/policy.js';
import { A2AError } from '../errors.js';
import { afterDelivered } from '../render/position.js';
import { resumeMessage, resumeThread } from '../turn/resume.js';
import { runCheckedTurn, runResume, type TurnRequest } from '../turn/turn.js';
import { within } from '../turn/watchdog.js';
import { CancelsInFlight } from './cancels.js';
import { TurnsInFlight, type Ladder } from './in-flight.js';
import { agentKey, checkInput, checkResumeInput, onThread, type ThreadResumeInput } from './input.js';
import type { A2AClient, A2AOptions, ResumeInput, TurnInput } from './types.js';

export type { A2AClient, A2AOptions, CloseOptions, LeaveMode, ResumeInput, TurnInput } from './types.js';

/** What a platform entry (the Node one) hands the core client: a resource it owns, a faster deriver. */
export interface ClientPlatform {
  owned?: { close(): Promise<void> };
  /** gRPC support (the Node entry's): gRPC interfaces are chosen only with it. */
  grpc?: GrpcSupport;
  deriver?: (secret: string | Uint8Array) => (handle: string, conversationKey: string) => string | Promise<string>;
}

/** How long `close({ detach: true })` waits for the agent to name the task of a turn still being sent. */
const HAND_OVER_WAIT_MS = 5_000;

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
          ...agentReach(options),
          ...(options.capabilities?.outputModes ? { outputModes: options.capabilities.outputModes } : {}),
          cardTimeoutMs: policy.cardTimeoutMs,
          ...(platform.grpc ? { grpc: platform.grpc } : {}),
          logger,
        })
      : undefined;
  const ports = options.ports ?? sdkPorts!;
  const threads = new ThreadRegistry(options.maxThreads ?? 10_000);
  const cancels = new CancelsInFlight();
  // Only with the option: without it a turn is exactly what it was (no operator, no per-event work).
  const telemetry = options.telemetry ? new TurnTelemetry(options.telemetry) : undefined;
  const inFlight = new TurnsInFlight({
    policy,
    logger,
    onCancel: cancels.track,
    ...(options.random ? { random: options.random } : {}),
  });
  /** A thread's turn on the agent's port (with the turn's extensions): traced when the client has telemetry. */
  const onPort = (
    input: { agent: string; handle?: string; extensions?: readonly string[] },
    run: (port: A2APort) => Observable<TurnEvent>,
  ): Observable<TurnEvent> => {
    const extensions = input.extensions?.length ? input.extensions : undefined;
    if (telemetry === undefined) return run(ports(input.agent, extensions && { extensions }));
    return telemetry.turn(input.agent, input.handle ?? '', (headers, traced) =>
      run(
        traced(ports(input.agent, headers || extensions ? { ...(headers && { headers }), ...(extensions && { extensions }) } : undefined)),
      ),
    );
  };

  /**
   * What a thread remembers of a turn (see {@link rememberThread}): a message's turn adopts a
   * contextId the agent replaced (logged once); a resume adopts nothing.
   */
  const remembered = (input: { agent: string; handle: string }, key: string, sent: ThreadTurnStart, adopts: boolean) =>
    rememberThread(
      threads,
      key,
      sent,
      adopts
        ? (adopted) =>
            logger.warn(
              { agent: redactQuery(input.agent), handle: input.handle, sent: sent.contextId, adopted },
              "the agent replaced the contextId; this thread now uses the agent's",
            )
        : undefined,
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
    if (input.messageId !== undefined) request.messageId = input.messageId;
    // Before the message goes, a task the agent left waiting is looked for: on the thread's first
    // message in this process, or on every one (replicas whose callers do not carry it).
    const look =
      policy.continueInterrupted &&
      taskId === undefined &&
      (policy.waitingTaskLookup === 'every-message' || threads.get(key)?.lookedUp !== true);
    if (look) threads.update(key, { lookedUp: true });
    // The caller's task id is checked at the agent before the message goes; the thread's own is the thread's.
    const fromCaller = input.taskId !== undefined;
    const options = look || fromCaller ? { ...turnLadder, lookForWaitingTask: look, taskFromCaller: fromCaller } : turnLadder;
    // Only a task the thread itself remembered goes back to it if the turn never reached it.
    const sent: ThreadTurnStart = fromCaller || interrupted === undefined ? { contextId } : { contextId, taskId: interrupted };
    return onPort(input, (port) => runCheckedTurn(port, request, options).pipe(remembered(input, key, sent, true)));
  };

  /**
   * A thread's reply in flight, followed: its task by id or position (checked to be the thread's), the
   * task carrying one of its messages, or its newest unfinished task. Nothing is adopted.
   */
  const threadResume = (input: ThreadResumeInput, key: string, contextId: string, turnLadder: Ladder): Observable<TurnEvent> =>
    onPort(input, (port) => {
      const taskId = input.from?.taskId ?? input.taskId;
      let resumed$: Observable<TurnEvent>;
      if (taskId !== undefined) resumed$ = runResume(port, { taskId, contextId }, turnLadder);
      else if (input.messageId !== undefined) resumed$ = resumeMessage(port, contextId, input.messageId, turnLadder);
      else {
        // A thread resumed to its end was looked up: a task left waiting is remembered, so its next message need not ask.
        resumed$ = resumeThread(port, contextId, turnLadder).pipe(
          tap((event) => {
            if (event.type === 'end') threads.update(key, { lookedUp: true });
          }),
        );
      }
      const rest$ = input.from === undefined ? resumed$ : resumed$.pipe(afterDelivered(input.from.delivered));
      return rest$.pipe(remembered(input, key, { contextId }, false));
    });

  /** A task followed without a thread (the caller vouches for it): nothing is checked or remembered. */
  const taskResume = (input: ResumeInput, taskId: string, turnLadder: Ladder): Observable<TurnEvent> =>
    onPort(input, (port) => {
      const resumed$ = runResume(port, input.contextId === undefined ? { taskId } : { taskId, contextId: input.contextId }, turnLadder);
      return input.from === undefined ? resumed$ : resumed$.pipe(afterDelivered(input.from.delivered));
    });

  return {
    turn: (input) =>
      inFlight.turn(
        input,
        true,
        () => ThreadRegistry.key(checkInput(input, policy.maxAttachmentBytes), input.handle, input.thread),
        (key, turnLadder) => withContextId(input, key, (contextId) => threadTurn(input, key, contextId, turnLadder)),
      ),
    resume: (input) =>
      inFlight.turn(
        input,
        false,
        () => {
          const url = checkResumeInput(input);
          return onThread(input) ? ThreadRegistry.key(url, input.handle, input.thread) : '';
        },
        (key, turnLadder) =>
          onThread(input)
            ? withContextId(input, key, (contextId) => threadResume(input, key, contextId, turnLadder))
            : taskResume(input, (input.from?.taskId ?? input.taskId)!, turnLadder),
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
      // A turn still running ends now: handed over (detach), or abandoned, its task cancelled as any left turn's.
      const waitMs = closing.handOverWaitMs ?? HAND_OVER_WAIT_MS;
      if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_TIMER_MS) {
        throw new A2AError({
          kind: 'config',
          operation: 'options',
          message: `handOverWaitMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`,
        });
      }
      await inFlight.end(closing.detach === true, waitMs);
      await cancels.settled();
      await sdkPorts?.close();
      await platform.owned?.close();
    },
  };
}
