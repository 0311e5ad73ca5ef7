import { from, switchMap, type MonoTypeOperatorFunction, type Observable } from 'rxjs';
import type { Logger } from '../logger.js';
import { redactQuery } from '../port/card-url.js';
import type { TurnEvent } from '../port/events.js';
import { ThreadRegistry, type ThreadMemory } from './registry.js';
import { rememberThread, type AdoptionNotes, type ThreadTurnStart } from './remember.js';

export type { ThreadMemory } from './registry.js';

/**
 * When a thread's message asks the agent for a task it left waiting (see the policy's
 * `waitingTaskLookup`); `never` (the policy's `continueInterrupted: false`) also leaves out the task
 * this process saw left waiting: only the caller's task id continues one.
 */
export type WaitingTaskLookup = 'never' | 'first-message' | 'every-message';

/** What a thread's message goes with, as the thread decides it. */
export interface MessagePlan {
  /** The task it continues: the caller's, or the one the thread's last turn left interrupted. */
  taskId?: string;
  /** `taskId` is the caller's (to be checked at the agent), not the thread's own. */
  fromCaller: boolean;
  /** Look for a task the agent left waiting on the thread before the message goes. */
  look: boolean;
  /** The thread's own task the message continues: given back to the thread if the turn never reaches it. */
  own?: string;
  /** That task's generation at its question (A2A 1.1 draft), when known: the message goes only while the task is still there. */
  ownGeneration?: number;
  /** Look for the thread's conversation under the previous identity secrets' contextIds first (once per thread). */
  rotate: boolean;
}

/** Derives a thread's contextId from its handle and key (synchronously when it can). */
export type Deriver = (handle: string, thread: string) => string | Promise<string>;

/**
 * Everything a client remembers of its threads, in one owner with one bound and one eviction rule
 * (the least recently used go first): a contextId an agent replaced ours with, the task a turn left
 * waiting for the thread's next message, and whether this process asked the agent for one. Nothing
 * here is needed for continuity: the contextId is derived; what a replica needs of a thread is carried
 * by its caller or found at the agent.
 */
export class Threads {
  private readonly memories: ThreadRegistry;
  /**
   * The contextIds derived synchronously lately, by thread key (as many as `maxThreads`, the oldest
   * dropped first): a known thread's message derives none (an HMAC, and the bytes of its input).
   * Nothing here is needed: a thread dropped from it derives its id again.
   */
  private readonly derived = new Map<string, string>();

  constructor(
    private readonly maxThreads: number,
    private readonly derive: Deriver,
    private readonly lookup: WaitingTaskLookup,
    private readonly logger: Logger,
    private readonly previous: readonly Deriver[] = [],
  ) {
    this.memories = new ThreadRegistry(maxThreads);
  }

  /** The key of one thread of one agent handle at one agent URL (fields length-prefixed, so no two differ only in splitting). */
  static key(agent: string, handle: string, thread: string): string {
    return [agent, handle, thread].map((field) => `${field.length}:${field}`).join('|');
  }

  /** What the process remembers of the thread, if anything. */
  memory(key: string): Readonly<ThreadMemory> | undefined {
    return this.memories.get(key);
  }

  /**
   * `body` with the thread's contextId: the one given, the one the thread adopted, or the derived one.
   * A contextId known at once (given, adopted, or derived synchronously) needs no promise hop.
   */
  withContextId<T = TurnEvent>(
    key: string,
    thread: { handle: string; thread: string; contextId?: string },
    body: (contextId: string) => Observable<T>,
  ): Observable<T> {
    const contextId = thread.contextId ?? this.memories.get(key)?.adoptedContextId ?? this.derivedId(key, thread.handle, thread.thread);
    return typeof contextId === 'string' ? body(contextId) : from(contextId).pipe(switchMap(body));
  }

  /** The thread's derived contextId: the one derived for its key before, else derived (and kept when known at once). */
  private derivedId(key: string, handle: string, thread: string): string | Promise<string> {
    const known = this.derived.get(key);
    if (known !== undefined) return known;
    const contextId = this.derive(handle, thread);
    if (typeof contextId === 'string') {
      if (this.derived.size >= this.maxThreads) this.derived.delete(this.derived.keys().next().value as string);
      this.derived.set(key, contextId);
    }
    return contextId;
  }

  /** The thread's contextIds under the previous identity secrets, newest first (none without them). */
  previousContexts(handle: string, thread: string): string[] | Promise<string[]> {
    const derived = this.previous.map((derive) => derive(handle, thread));
    return derived.every((id): id is string => typeof id === 'string') ? derived : Promise.all(derived);
  }

  /**
   * What the thread's next message goes with (see {@link MessagePlan}): the caller's task, else the
   * one the thread left interrupted (taken: only this message continues it); without either, whether
   * to look for one at the agent (once per thread per process, or every time, by the lookup rule).
   * With previous identity secrets, a thread's first message here (its contextId `given` by the
   * caller, or adopted, excepted) looks for its conversation under them first.
   */
  message(key: string, callerTaskId: string | undefined, given = false): MessagePlan {
    // `never`: only the caller's task is continued, so no process's memory decides (replicas share nothing).
    const remembered = this.memories.takeInterrupted(key);
    const own = this.lookup === 'never' ? undefined : remembered?.taskId;
    const taskId = callerTaskId ?? own;
    const look =
      taskId === undefined && this.lookup !== 'never' && (this.lookup === 'every-message' || this.memories.get(key)?.lookedUp !== true);
    if (look) this.lookedUp(key);
    const memory = this.memories.get(key);
    const rotate =
      taskId === undefined &&
      this.previous.length > 0 &&
      !given &&
      memory?.adoptedContextId === undefined &&
      memory?.rotationChecked !== true;
    if (rotate) this.memories.update(key, { rotationChecked: true });
    return {
      ...(taskId === undefined ? {} : { taskId }),
      fromCaller: callerTaskId !== undefined,
      look,
      ...(callerTaskId === undefined && own !== undefined ? { own } : {}),
      ...(callerTaskId === undefined && own !== undefined && remembered?.generation !== undefined
        ? { ownGeneration: remembered.generation }
        : {}),
      rotate,
    };
  }

  /** This process asked the agent for a task left waiting on the thread (its first message, a resume to the end). */
  lookedUp(key: string): void {
    this.memories.update(key, { lookedUp: true });
  }

  /**
   * What the thread keeps of a turn, as an operator over its events (see {@link rememberThread}): a
   * message's turn (`adopts`) adopts a contextId the agent replaced ours with, logged once per thread
   * naming `agent` and `handle`; a resume adopts nothing.
   */
  remember(key: string, sent: ThreadTurnStart, by: { agent: string; handle: string } | undefined): MonoTypeOperatorFunction<TurnEvent> {
    return rememberThread(this.memories, key, sent, new AdoptionLog(this.logger, sent, by));
  }
}

/** A turn's {@link AdoptionNotes}, logged: one small object per turn, its log lines made only when one is written. */
class AdoptionLog implements AdoptionNotes {
  readonly adopts: boolean;

  constructor(
    private readonly logger: Logger,
    private readonly sent: ThreadTurnStart,
    private readonly by: { agent: string; handle: string } | undefined,
  ) {
    this.adopts = by !== undefined;
  }

  adopted(adopted: string): void {
    this.logger.warn(this.fields(adopted), "the agent replaced the contextId; this thread now uses the agent's");
  }

  carried(adopted: string): void {
    this.logger.info(this.fields(adopted), "the thread's conversation is under a previous identity secret; it continues there");
  }

  private fields(adopted: string) {
    const { by } = this;
    return { ...(by && { agent: redactQuery(by.agent), handle: by.handle }), sent: this.sent.contextId, adopted };
  }
}
