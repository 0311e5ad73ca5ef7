import { concat, defer, finalize, from, Observable, of, switchMap, tap, throwError, type Subscription } from 'rxjs';
import { A2AError } from '../errors.js';
import { contextIdDeriver } from '../identity/context-id.js';
import { identitySecret } from '../identity/secret.js';
import { ThreadRegistry, type ThreadMemory } from '../identity/threads.js';
import { silentLogger, type Logger } from '../logger.js';
import type { ContextAdoptedEvent, TurnEvent } from '../port/events.js';
import { resolvePolicy, type TurnPolicyInput } from '../turn/policy.js';
import { checkRequest, runTurn } from '../turn/turn.js';
import { within } from '../turn/watchdog.js';
import { cardUrlOf } from '../sdk/card-fetch.js';
import { createSdkPorts, type PortFactory } from '../sdk/ports.js';
import type { A2APort } from '../port/port.js';
import type { CardSummary } from '../port/types.js';

/** How a client reaches agents and keeps threads. */
export interface A2AOptions {
  /**
   * The secret contextIds are derived with (at least 16 bytes). Without one, a random key for this
   * process (one warning through the logger): conversations then do not continue after a restart.
   * The Node entry reads `A4H_IDENTITY_SECRET` when this is not given.
   */
  identitySecret?: string | Uint8Array;
  /** What the caller can render: sent as `acceptedOutputModes`. Default `text/plain`, `text/markdown`. */
  capabilities?: { outputModes?: readonly string[] };
  /** pino- or console-shaped; silent by default. */
  logger?: Logger;
  /** Bounds and backoffs of every turn (see the README). */
  policy?: TurnPolicyInput;
  /** The fetch for every request; default the global fetch (the Node entry passes an undici one). */
  fetch?: typeof fetch;
  /** Ports to agents; default the official SDK's (`createSdkPorts`). Inject a fake one in tests. */
  ports?: PortFactory;
  /** Threads remembered at most (the least recently used go first). Default 10,000. */
  maxThreads?: number;
  /** Random numbers in [0, 1) for backoff jitter. Default `Math.random`. */
  random?: () => number;
}

/** One message of one chat thread to one agent. */
export interface TurnInput {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle in the gateway, e.g. `travel`: part of the contextId derivation. */
  handle: string;
  /** The conversation key, e.g. `slack:T1:C2:1700000000.000100`. */
  thread: string;
  text: string;
  /** A contextId to use instead of deriving one (browser apps whose backend derives it). */
  contextId?: string;
}

export interface A2AClient {
  /** One turn: a cold Observable of turn events (see `runTurn`), with the thread's ids filled in. */
  turn(input: TurnInput): Observable<TurnEvent>;
  /** The agent's resolved card (from the shared cache): protocol version, transport, streaming, tenant, skills. */
  card(agent: string): Observable<CardSummary>;
  /** The derived contextId of a thread: the same on every replica and release that shares the secret. */
  contextId(handle: string, thread: string): Promise<string>;
  /** What this process remembers of a thread (an adopted contextId, an interrupted task), if anything. */
  thread(agent: string, handle: string, thread: string): Readonly<ThreadMemory> | undefined;
  /** Waits for the CancelTasks of abandoned turns to be answered (each bounded), then releases what the client owns (the Node entry's connection pool). */
  close(): Promise<void>;
}

/**
 * The client facade: derives each thread's contextId, runs the ladder, and keeps a bounded
 * in-memory registry per thread for the guard (an agent that replaced the contextId) and for
 * follow-ups (an interrupted task's id goes on the thread's next message; a finished one never).
 */
/** What a platform entry (the Node one) hands the core client: a resource it owns, a faster deriver. */
export interface ClientPlatform {
  owned?: { close(): Promise<void> };
  deriver?: (secret: string | Uint8Array) => (handle: string, conversationKey: string) => string | Promise<string>;
}

export function createA2A(options: A2AOptions = {}, platform: ClientPlatform = {}): A2AClient {
  const logger = options.logger ?? silentLogger;
  const derive = (platform.deriver ?? contextIdDeriver)(identitySecret(options.identitySecret, logger));
  const policy = resolvePolicy(options.policy);
  const makePort =
    options.ports ??
    createSdkPorts({
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.capabilities?.outputModes ? { outputModes: options.capabilities.outputModes } : {}),
    });
  // One port per agent URL (ports are stateless; the card cache behind them is shared anyway).
  const portsByAgent = new Map<string, A2APort>();
  const ports = (agent: string): A2APort => {
    let port = portsByAgent.get(agent);
    if (port === undefined) {
      port = makePort(agent);
      if (portsByAgent.size >= 1_000) portsByAgent.delete(portsByAgent.keys().next().value as string);
      portsByAgent.set(agent, port);
    }
    return port;
  };
  const threads = new ThreadRegistry(options.maxThreads ?? 10_000);
  const cancels = new Set<Promise<void>>();
  const onCancel = (cancel: Subscription): void => {
    const done = new Promise<void>((resolve) => cancel.add(resolve));
    cancels.add(done);
    void done.then(() => cancels.delete(done));
  };
  const ladder = { policy, logger, onCancel, ...(options.random ? { random: options.random } : {}) };

  const turn = (input: TurnInput): Observable<TurnEvent> =>
    defer(() => {
      try {
        checkInput(input);
      } catch (error) {
        return concat(of<TurnEvent>({ type: 'start' }), throwError(() => error));
      }
      const key = ThreadRegistry.key(input.agent, input.handle, input.thread);
      const memory = threads.get(key);
      const contextId = input.contextId ?? memory?.adoptedContextId ?? derive(input.handle, input.thread);
      // A contextId known at once (explicit, adopted, or derived synchronously) needs no promise hop.
      if (typeof contextId === 'string') return threadTurn(input, key, contextId);
      return from(contextId).pipe(switchMap((id) => threadTurn(input, key, id)));
    });

  /** The ladder with the thread's follow-up task and the guard around it. */
  const threadTurn = (input: TurnInput, key: string, contextId: string): Observable<TurnEvent> => {
    const taskId = threads.get(key)?.interruptedTaskId;
    if (taskId !== undefined) threads.update(key, { interruptedTaskId: undefined });
    let heardTask = false;
    let ended = false;
    return runTurn(ports(input.agent), { text: input.text, contextId, ...(taskId ? { taskId } : {}) }, ladder).pipe(
      adoptReplacedContext(contextId, (adopted) => {
        threads.update(key, { adoptedContextId: adopted });
        if (threads.get(key)?.adoptionLogged) return;
        threads.update(key, { adoptionLogged: true });
        logger.warn({ agent: input.agent, handle: input.handle, sent: contextId, adopted }, 'the agent replaced the contextId; this thread now uses the agent\'s');
      }),
      tap((event) => {
        if (event.type === 'task' || event.type === 'task-gone') heardTask = true;
        if (event.type !== 'end') return;
        ended = true;
        const interrupted = event.outcome === 'input-required' || event.outcome === 'auth-required';
        threads.update(key, { interruptedTaskId: interrupted ? event.taskId : undefined });
      }),
      finalize(() => {
        // A turn that never reached the agent's task leaves the interrupted task waiting for the next message.
        if (!ended && !heardTask && taskId !== undefined) threads.update(key, { interruptedTaskId: taskId });
      }),
    );
  };

  return {
    turn,
    card: (agent) => ports(agent).card().pipe(within<CardSummary>(policy.cardTimeoutMs, 'card', 'card')),
    contextId: async (handle, thread) => derive(handle, thread),
    thread: (agent, handle, thread) => threads.get(ThreadRegistry.key(agent, handle, thread)),
    close: async () => {
      // CancelTasks of abandoned turns are bounded by cancelTimeoutMs: let them reach the agents.
      await Promise.all([...cancels]);
      await platform.owned?.close();
    },
  };
}

/**
 * The guard: when the agent answers with another contextId than the one sent, emit
 * `context-adopted` once (before the event that showed it) and tell `adopt`.
 */
function adoptReplacedContext(sent: string, adopt: (adopted: string) => void) {
  return (events: Observable<TurnEvent>): Observable<TurnEvent> =>
    new Observable<TurnEvent>((subscriber) => {
      let adopted: string | undefined;
      return events.subscribe({
        next: (event) => {
          const seen = event.type === 'task' || event.type === 'end' ? event.contextId : undefined;
          if (seen !== undefined && seen !== sent && seen !== adopted) {
            adopted = seen;
            try {
              adopt(seen);
            } catch (error) {
              return subscriber.error(error); // e.g. a logger that threw: the turn's error, not an unhandled one
            }
            subscriber.next({ type: 'context-adopted', sent, adopted: seen } satisfies ContextAdoptedEvent);
          }
          subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}

function checkInput(input: TurnInput): void {
  checkRequest({ text: input.text, ...(input.contextId === undefined ? {} : { contextId: input.contextId }) });
  cardUrlOf(input.agent);
  for (const field of ['handle', 'thread'] as const) {
    const value = input[field];
    if (typeof value !== 'string' || value === '') {
      throw new A2AError({ kind: 'input', operation: 'turn', message: `the ${field} must be a non-empty string` });
    }
  }
}
