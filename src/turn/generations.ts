import type { AgentEvent } from '../port/types.js';

/** The generation an event carries: a snapshot's, or an update's (A2A 1.1 draft). */
function generationOf(event: AgentEvent): number | undefined {
  if (event.kind === 'task') return event.task.generation;
  if (event.kind === 'status' || event.kind === 'artifact') return event.generation;
  return undefined;
}

/**
 * A2A 1.1's `generation` (draft, `dev-1.1` §3.2.7) as one turn follows it: 1 when the task is made,
 * +1 on each change, carried by each snapshot and update. The last one seen tells an event seen
 * already (a duplicate, or an older one after a reconnect: {@link stale}) and one that skipped some
 * ({@link gap}: the turn reads the task again before its end). An agent that sends 0, or two updates
 * of one stream with the same generation, does not keep generations: from then on they are not read
 * in this turn, which then goes as with a 1.0 agent. An event without one changes nothing.
 */
export class Generations {
  private last: number | undefined;
  private unkept = false;
  private skipped = false;

  /** True for an event whose generation the turn has seen already or passed: it is not shown again. */
  stale(event: AgentEvent): boolean {
    const generation = this.read(event);
    if (generation === undefined || this.last === undefined) return false;
    // A snapshot of the same generation is the same state: taking it again changes nothing.
    return event.kind === 'task' ? generation < this.last : generation <= this.last;
  }

  /** Takes an accepted event's generation: an update past the next one says events were missed; a snapshot covers them. */
  observe(event: AgentEvent): void {
    if (event.kind === 'task') this.skipped = false; // a snapshot, with a generation or without, is the whole task
    const generation = this.read(event);
    if (generation === undefined) return;
    if (event.kind !== 'task' && this.last !== undefined && generation > this.last + 1) this.skipped = true;
    this.last = Math.max(this.last ?? 0, generation);
  }

  /** Two updates in a row of one stream with the same generation: the agent does not keep them. */
  repeated(): void {
    this.unkept = true;
    this.skipped = false;
  }

  /** Events were missed (a generation skipped) and no snapshot came since. */
  get gap(): boolean {
    return this.skipped;
  }

  /** The last generation seen, while the agent keeps them. */
  get current(): number | undefined {
    return this.unkept ? undefined : this.last;
  }

  /** An event's generation, unless the agent does not keep them; 0 says it does not. */
  private read(event: AgentEvent): number | undefined {
    if (this.unkept) return undefined;
    const generation = generationOf(event);
    if (generation === 0) {
      this.unkept = true;
      this.skipped = false;
      return undefined;
    }
    return generation;
  }

  /** An update's generation (not a snapshot's), for the repeat check of one stream. */
  static ofUpdate(event: AgentEvent): number | undefined {
    return event.kind === 'status' || event.kind === 'artifact' ? event.generation : undefined;
  }
}
