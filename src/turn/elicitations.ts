import type { AgentEvent, Elicitation } from '../port/types.js';

/** The most requests one task's set keeps; an agent that names more has the oldest forgotten. */
const MAX_KEPT = 64;

/**
 * A2A 1.1 (draft, ADR-002): a task's requests for input as the agent tells them, by id: a snapshot's
 * set replaces what was known, a status's delta is merged into it. Empty (and `list` undefined) while
 * the agent never sent any: a 1.0 agent's turn carries none.
 */
export class Elicitations {
  private readonly byId = new Map<string, Elicitation>();
  private told = false;

  /** Takes what an accepted event says of the task's requests. */
  observe(event: AgentEvent): void {
    if (event.kind === 'task') {
      if (event.task.elicitations !== undefined) {
        this.byId.clear();
        this.merge(event.task.elicitations);
      }
      if (event.task.status.elicitations !== undefined) this.merge(event.task.status.elicitations);
    } else if (event.kind === 'status' && event.status.elicitations !== undefined) {
      this.merge(event.status.elicitations);
    }
  }

  /** The task's requests, in the order the agent first named them; undefined when the agent never sent any. */
  get list(): Elicitation[] | undefined {
    return this.told ? [...this.byId.values()] : undefined;
  }

  private merge(changes: readonly Elicitation[]): void {
    this.told = true;
    for (const change of changes) {
      this.byId.set(change.id, change);
      if (this.byId.size > MAX_KEPT) this.byId.delete(this.byId.keys().next().value as string);
    }
  }
}
