import type { Observable, Subscription } from 'rxjs';
import type { TurnEvent } from '../port/events.js';
import { cardUrlOf, redactQuery } from '../port/card-url.js';
import { AgentLimit } from './agent-limit.js';
import { AgentLimitsTable, type AgentLimitsOption } from './agent-limit-option.js';
import type { LimitedRun } from './agent-limit-turn.js';
import type { Ladder } from './in-flight.js';

/** Past this many agents' limits kept, the idle ones are dropped when another agent comes. */
const SWEEP_AT = 1_024;

/**
 * The client's per-agent limits: the option checked once (a bad entry is a `config` error from
 * `createA2A`), an {@link AgentLimit} per agent made on its first turn. Only made with the option.
 */
export class AgentLimiters {
  private readonly table: AgentLimitsTable;
  private readonly agents = new Map<string, AgentLimit>();

  constructor(option: AgentLimitsOption) {
    this.table = new AgentLimitsTable(option);
  }

  /** `run` under the limit of `agent` (a URL the turn's input check accepted). */
  gate(agent: string, run: LimitedRun): Observable<TurnEvent> {
    return this.of(cardUrlOf(agent)).gate(run);
  }

  /**
   * A client's turn (`run`, given its thread's key and ladder) under the limit of `agent`: run when
   * the agent has room, its ladder's CancelTasks holding its place until they end.
   */
  limited(
    agent: string,
    run: (key: string, ladder: Ladder) => Observable<TurnEvent>,
  ): (key: string, ladder: Ladder) => Observable<TurnEvent> {
    return (key, ladder) => this.gate(agent, (hold) => run(key, { ...ladder, onCancel: both(hold, ladder.onCancel) }));
  }

  /** The client closes: no waiting turn starts any more. */
  close(): void {
    for (const limit of this.agents.values()) limit.close();
  }

  private of(cardUrl: string): AgentLimit {
    let limit = this.agents.get(cardUrl);
    if (limit === undefined) {
      if (this.agents.size >= SWEEP_AT) for (const [url, kept] of this.agents) if (kept.idle()) this.agents.delete(url);
      limit = new AgentLimit(this.table.of(cardUrl), redactQuery(cardUrl));
      this.agents.set(cardUrl, limit);
    }
    return limit;
  }
}

/** The ladder's `onCancel`: the limit's hold, then the client's. */
function both(hold: (cancel: Subscription) => void, then: ((cancel: Subscription) => void) | undefined): (cancel: Subscription) => void {
  return (cancel) => {
    hold(cancel);
    then?.(cancel);
  };
}
