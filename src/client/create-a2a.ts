import { concat, defer, from, of, switchMap, throwError, type Observable } from 'rxjs';
import { contextIdDeriver } from '../identity/context-id.js';
import { rememberThread } from '../identity/remember.js';
import { identitySecret, warnOnDerive } from '../identity/secret.js';
import { ThreadRegistry } from '../identity/threads.js';
import { silentLogger } from '../logger.js';
import { redactQuery } from '../port/card-url.js';
import type { TurnEvent } from '../port/events.js';
import type { A2APort } from '../port/port.js';
import type { CardSummary } from '../port/types.js';
import { createSdkPorts } from '../sdk/ports.js';
import { TurnTelemetry } from '../telemetry/turn.js';
import { resolvePolicy } from '../turn/policy.js';
import { runCheckedTurn, type TurnRequest } from '../turn/turn.js';
import { within } from '../turn/watchdog.js';
import { CancelsInFlight } from './cancels.js';
import { agentKey, checkInput } from './input.js';
import type { A2AClient, A2AOptions, TurnInput } from './types.js';

export type { A2AClient, A2AOptions, TurnInput } from './types.js';

/** What a platform entry (the Node one) hands the core client: a resource it owns, a faster deriver. */
export interface ClientPlatform {
  owned?: { close(): Promise<void> };
  deriver?: (secret: string | Uint8Array) => (handle: string, conversationKey: string) => string | Promise<string>;
}

/**
 * The client facade: derive each thread's contextId → run the ladder → remember the thread.
 *
 * What the thread remembers lives in a bounded in-memory registry: a contextId the agent replaced
 * ours with (the guard) and an interrupted task, whose id goes on the thread's next message (a
 * finished one never does); see {@link rememberThread}. `close()` lets the CancelTasks of abandoned
 * turns reach their agents.
 */
export function createA2A(options: A2AOptions = {}, platform: ClientPlatform = {}): A2AClient {
  const logger = options.logger ?? silentLogger;
  const derive = warnOnDerive(
    options.identitySecret,
    logger,
    (platform.deriver ?? contextIdDeriver)(identitySecret(options.identitySecret)),
  );
  const policy = resolvePolicy(options.policy);
  // A port per turn: making one costs about a microsecond (a URL parse), and the card cache behind
  // every port of this factory is shared, so no port cache.
  const ports =
    options.ports ??
    createSdkPorts({
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.capabilities?.outputModes ? { outputModes: options.capabilities.outputModes } : {}),
      ...(options.maxResponseBytes ? { maxResponseBytes: options.maxResponseBytes } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
      logger,
    });
  const threads = new ThreadRegistry(options.maxThreads ?? 10_000);
  const cancels = new CancelsInFlight();
  // Only with the option: without it a turn is exactly what it was (no operator, no per-event work).
  const telemetry = options.telemetry ? new TurnTelemetry(options.telemetry) : undefined;
  const ladder = { policy, logger, onCancel: cancels.track, ...(options.random ? { random: options.random } : {}) };

  /** The ladder for one thread's message, remembered by the thread. */
  const threadTurn = (input: TurnInput, key: string, contextId: string): Observable<TurnEvent> => {
    const taskId = threads.takeInterrupted(key);
    const request: TurnRequest & { contextId: string } = { text: input.text, contextId, ...(taskId ? { taskId } : {}) };
    if (input.files?.length) request.files = input.files;
    if (input.data?.length) request.data = input.data;
    const run = (port: A2APort): Observable<TurnEvent> =>
      runCheckedTurn(port, request, ladder).pipe(
        rememberThread(threads, key, request, (adopted) =>
          logger.warn(
            { agent: redactQuery(input.agent), handle: input.handle, sent: contextId, adopted },
            "the agent replaced the contextId; this thread now uses the agent's",
          ),
        ),
      );
    if (telemetry === undefined) return run(ports(input.agent));
    return telemetry.turn(input.agent, input.handle, (headers, traced) => run(traced(ports(input.agent, headers && { headers }))));
  };

  return {
    turn: (input) =>
      defer(() => {
        let key: string;
        try {
          key = ThreadRegistry.key(checkInput(input, policy.maxAttachmentBytes), input.handle, input.thread);
        } catch (error) {
          return concat(
            of<TurnEvent>({ type: 'start' }),
            throwError(() => error),
          );
        }
        const contextId = input.contextId ?? threads.get(key)?.adoptedContextId ?? derive(input.handle, input.thread);
        // A contextId known at once (explicit, adopted, or derived synchronously) needs no promise hop.
        if (typeof contextId === 'string') return threadTurn(input, key, contextId);
        return from(contextId).pipe(switchMap((id) => threadTurn(input, key, id)));
      }),
    card: (agent) =>
      ports(agent)
        .card()
        .pipe(within<CardSummary>(policy.cardTimeoutMs, 'card', 'card')),
    contextId: async (handle, thread) => derive(handle, thread),
    thread: (agent, handle, thread) => {
      const url = agentKey(agent);
      return url === undefined ? undefined : threads.get(ThreadRegistry.key(url, handle, thread));
    },
    close: async () => {
      await cancels.settled();
      await platform.owned?.close();
    },
  };
}
