/** What the client remembers of one thread, in memory only. */
export interface ThreadMemory {
  /** The agent answered with another contextId, or the conversation is under a previous secret's: use it on the thread's next turns. */
  adoptedContextId?: string;
  /** The task the thread's last turn left interrupted (input-required, auth-required). */
  interruptedTaskId?: string;
  /** That task's generation at the question (A2A 1.1 draft), when the agent keeps them: the answer names it. */
  interruptedGeneration?: number;
  /** The adoption was logged once already. */
  adoptionLogged?: boolean;
  /**
   * This process asked the agent for a task left waiting on the thread (its first message here, or a
   * resume to the end): with the `first-message` lookup policy, later messages do not ask again.
   */
  lookedUp?: boolean;
  /** This process looked for the thread's conversation under the previous identity secrets (once per thread). */
  rotationChecked?: boolean;
}

/**
 * A bounded, least-recently-used map of thread memories, by thread key: one bound, one eviction rule.
 * Only {@link Threads} holds one. Losing an entry only costs the guard's adoption, a pending
 * follow-up's task id and a lookup (the thread's next message asks the agent again): the derived
 * contextId needs no memory.
 */
export class ThreadRegistry {
  private readonly threads = new Map<string, ThreadMemory>();

  constructor(private readonly maxThreads: number) {}

  get(key: string): ThreadMemory | undefined {
    const memory = this.threads.get(key);
    if (memory !== undefined) {
      this.threads.delete(key);
      this.threads.set(key, memory);
    }
    return memory;
  }

  /** Merges `change` into the thread's memory; an entry left empty is dropped. */
  update(key: string, change: { [K in keyof ThreadMemory]?: ThreadMemory[K] | undefined }): void {
    const memory: Record<string, unknown> = { ...this.threads.get(key) };
    for (const [field, value] of Object.entries(change)) {
      if (value === undefined) delete memory[field];
      else memory[field] = value;
    }
    this.threads.delete(key);
    if (Object.keys(memory).length === 0) return;
    this.threads.set(key, memory as ThreadMemory);
    while (this.threads.size > this.maxThreads) this.threads.delete(this.threads.keys().next().value as string);
  }

  /** The task the thread's last turn left interrupted (and its generation), taken: the next turn continues it, and only that one. */
  takeInterrupted(key: string): { taskId: string; generation?: number } | undefined {
    const memory = this.get(key);
    const taskId = memory?.interruptedTaskId;
    if (taskId === undefined) return undefined;
    const generation = memory?.interruptedGeneration;
    this.update(key, { interruptedTaskId: undefined, interruptedGeneration: undefined });
    return generation === undefined ? { taskId } : { taskId, generation };
  }
}
