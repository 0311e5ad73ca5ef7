import type { Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import { contextIdDeriver } from '../identity/context-id.js';
import { identitySecret, warnOnDerive } from '../identity/secret.js';
import { Threads } from '../identity/threads.js';
import { readableLogger, silentLogger, type Logger } from '../logger.js';
import type { CardSummary } from '../port/card.js';
import type { TurnEvent } from '../port/events.js';
import { agentReach, createSdkPorts, type GrpcSupport, type SdkPorts } from '../sdk/ports.js';
import { TurnTelemetry } from '../telemetry/turn.js';
import { MAX_TIMER_MS, resolvePolicy } from '../turn/policy.js';
import { within } from '../turn/within.js';
import { AgentLimiters } from './agent-limits.js';
import { CancelsInFlight } from './cancels.js';
import { clientCancel } from './cancel.js';
import { clientHistory } from './history.js';
import { TurnsInFlight, type Ladder } from './in-flight.js';
import { agentKey, checkInput, checkResumeInput, onThread } from './input.js';
import { onPort } from './on-port.js';
import { taskResume, threadResume, threadTurn, type ThreadTurnParts } from './thread-turns.js';
import type { A2AClient, A2AOptions } from './types.js';

export type {
  A2AClient,
  A2AOptions,
  CancelInput,
  CloseOptions,
  HistoryInput,
  LeaveMode,
  ResumeInput,
  SurfaceOrigin,
  TurnInput,
} from './types.js';

/** A client's turn, run on its thread's key with its ladder. */
type Run = (key: string, ladder: Ladder) => Observable<TurnEvent>;

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
 * The client, wired: the ports (the SDK's, or the caller's), the threads it remembers ({@link Threads}),
 * the turns in flight; each turn a named function of `thread-turns.ts` (derive → run the ladder →
 * remember the thread). `close()` lets the CancelTasks of abandoned turns reach their agents. A
 * platform entry (the Node one) passes what it adds in `platform`.
 */
export function createClient(options: A2AOptions = {}, platform: ClientPlatform = {}): A2AClient {
  // A console reads sentence first; pino and its like stay structured (readableLogger).
  const logger = readableLogger(options.logger ?? silentLogger);
  const deriver = platform.deriver ?? contextIdDeriver;
  const derive = warnOnDerive(options.identitySecret, logger, deriver(identitySecret(options.identitySecret)));
  const previous = previousSecrets(options).map((secret) => deriver(secret));
  const policy = resolvePolicy(options.policy);
  const sdkPorts = options.ports === undefined ? defaultPorts(options, policy.cardTimeoutMs, platform, logger) : undefined;
  const ports = options.ports ?? sdkPorts!;
  const lookup = policy.continueInterrupted ? policy.waitingTaskLookup : 'never';
  const threads = new Threads(options.maxThreads ?? 10_000, derive, lookup, logger, previous);
  const cancels = new CancelsInFlight();
  // Only with the option: without it a turn is exactly what it was (no operator, no per-event work).
  const telemetry = options.telemetry ? new TurnTelemetry(options.telemetry) : undefined;
  const parts: ThreadTurnParts = { threads, onPort: onPort(ports, telemetry) };
  // Only with the option: without it a turn runs as it is given (no gate, no operator).
  const limits = options.agentLimits === undefined ? undefined : new AgentLimiters(options.agentLimits);
  const limited = limits === undefined ? (_agent: string, run: Run) => run : (agent: string, run: Run) => limits.limited(agent, run);
  const inFlight = new TurnsInFlight(
    {
      policy,
      logger,
      onCancel: cancels.track,
      ...(options.random ? { random: options.random } : {}),
      ...(options.push ? { push: options.push } : {}),
    },
    policy.secondMessage,
  );

  return {
    turn: (input) =>
      inFlight.turn(
        input,
        true,
        () => Threads.key(checkInput(input, policy.maxAttachmentBytes), input.handle, input.thread),
        limited(input.agent, (key, ladder) =>
          threads.withContextId(key, input, (contextId) => threadTurn(parts, input, key, contextId, ladder)),
        ),
      ),
    resume: (input) =>
      inFlight.turn(
        input,
        false,
        () => {
          const url = checkResumeInput(input);
          return onThread(input) ? Threads.key(url, input.handle, input.thread) : '';
        },
        limited(input.agent, (key, ladder) =>
          onThread(input)
            ? threads.withContextId(key, input, (contextId) => threadResume(parts, input, key, contextId, ladder))
            : taskResume(parts, input, (input.from?.taskId ?? input.taskId)!, ladder),
        ),
      ),
    history: (input) => clientHistory({ threads, ports, policy }, input),
    cancel: (input) => clientCancel({ threads, ports, policy }, input),
    card: (agent) =>
      ports(agent)
        .card()
        .pipe(within<CardSummary>(policy.cardTimeoutMs, 'card', 'card')),
    contextId: async (handle, thread) => derive(handle, thread),
    contextIds: async (handle, thread) => ({
      current: await derive(handle, thread),
      previous: await threads.previousContexts(handle, thread),
    }),
    thread: (agent, handle, thread) => {
      const url = agentKey(agent);
      return url === undefined ? undefined : threads.memory(Threads.key(url, handle, thread));
    },
    close: async (closing = {}) => {
      // A turn still running ends now: handed over (detach), or abandoned, its task cancelled as any left turn's;
      // one still waiting for its agent's room ends unsent (no turn ending lets it start).
      limits?.close();
      await inFlight.end(closing.detach === true, handOverWait(closing.handOverWaitMs));
      await cancels.settled();
      await sdkPorts?.close();
      await platform.owned?.close();
    },
  };
}

/** The previous identity secrets, checked as the current one is (a rotation needs the current one). */
function previousSecrets(options: A2AOptions): (string | Uint8Array)[] {
  const previous = options.previousIdentitySecrets ?? [];
  if (previous.length > 0 && options.identitySecret === undefined) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: 'previousIdentitySecrets need an identitySecret: the current one that replaced them',
    });
  }
  return previous.map((secret) => identitySecret(secret));
}

/** The SDK's ports, reaching agents as the options say (with the platform's gRPC support). */
function defaultPorts(options: A2AOptions, cardTimeoutMs: number, platform: ClientPlatform, logger: Logger): SdkPorts {
  return createSdkPorts({
    ...agentReach(options),
    ...(options.capabilities?.outputModes ? { outputModes: options.capabilities.outputModes } : {}),
    cardTimeoutMs,
    ...(platform.grpc ? { grpc: platform.grpc } : {}),
    logger,
  });
}

/** How long a detaching `close()` waits for a turn's task to be named: the option, checked, or the default. */
function handOverWait(option: number | undefined): number {
  const waitMs = option ?? HAND_OVER_WAIT_MS;
  if (!Number.isInteger(waitMs) || waitMs < 0 || waitMs > MAX_TIMER_MS) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: `handOverWaitMs must be a whole number of milliseconds from 0 to ${MAX_TIMER_MS}`,
    });
  }
  return waitMs;
}
