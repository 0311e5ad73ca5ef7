import type { Observable, Subscription } from 'rxjs';
import { A2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import { cardUrlOf, redactQuery } from '../port/card-url.js';
import { longestMatch, parseScope, type UrlScope } from '../sdk/http/credentials/url-scope.js';
import { bounded, Invalid, isObject, object, optional, whole, type Path } from '../validation.js';
import { AgentLimit, type ResolvedLimits } from './agent-limit.js';
import type { LimitedRun } from './agent-limit-turn.js';
import type { Ladder } from './in-flight.js';

/**
 * Bounds on what one agent is sent by this client: each agent (its card URL) has its own count and
 * queue. A turn (or a resume) that would pass a bound waits, in the order turns came, and says so
 * with `queued` events; a turn that finds `maxQueued` waiting fails at once with a `queue-full` error,
 * sending nothing.
 */
export interface AgentLimits {
  /** The most turns running to the agent at once (a whole number from 1); the rest wait. None by default. */
  maxInFlight?: number;
  /** The most turns started to the agent in any one second (a whole number from 1 to 10,000); the rest wait. None by default. */
  maxStartsPerSecond?: number;
  /** The most turns waiting for the agent (0: none wait, each past a bound fails at once). Default 1,000. */
  maxQueued?: number;
}

/** The `agentLimits` option of `createA2A`: bounds for every agent, and per agent by URL. */
export interface AgentLimitsOption extends AgentLimits {
  /**
   * Per agent, keyed by origin (`https://agent.example`) or URL prefix, as `credentials` are (the
   * longest prefix of the agent's card URL wins): these bounds instead of those above (`{}`: none).
   */
  agents?: Readonly<Record<string, AgentLimits>>;
}

/** The default of `maxQueued`. */
const QUEUED_DEFAULT = 1_000;
/** Past this many agents' limits kept, the idle ones are dropped when another agent comes. */
const SWEEP_AT = 1_024;

const readLimits = object(
  {
    maxInFlight: optional(bounded(whole, 1, Number.MAX_SAFE_INTEGER, 1)),
    maxStartsPerSecond: optional(bounded(whole, 1, 10_000, 1)),
    maxQueued: optional(bounded(whole, 0, Number.MAX_SAFE_INTEGER, QUEUED_DEFAULT)),
  },
  false,
);

/** One entry of `agents`, with its scope. */
type ScopedLimits = UrlScope & { limits: ResolvedLimits };

/**
 * The client's per-agent limits: the option checked once (a bad entry is a `config` error from
 * `createA2A`), an {@link AgentLimit} per agent made on its first turn. Only made with the option.
 */
export class AgentLimiters {
  private readonly base: ResolvedLimits;
  private readonly scoped: ScopedLimits[];
  private readonly agents = new Map<string, AgentLimit>();

  constructor(option: AgentLimitsOption) {
    try {
      if (!isObject(option)) throw new Invalid([], 'must be an object');
      this.base = resolve(option, []);
      const agents: unknown = option.agents ?? {};
      if (!isObject(agents)) throw new Invalid(['agents'], 'must be an object');
      this.scoped = Object.entries(agents).map(([key, limits]) => {
        const scope = parseScope(key);
        if ('problem' in scope) throw new Invalid(['agents', key], scope.problem.replace(/^the key /, 'its key '));
        return { ...scope, limits: resolve(limits, ['agents', key]) };
      });
    } catch (error) {
      if (!(error instanceof Invalid)) throw error;
      throw new A2AError({
        kind: 'config',
        operation: 'options',
        message: `invalid agentLimits${error.path.length ? `.${error.where('')}` : ''}: it ${error.says}`,
        cause: error,
      });
    }
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
      limit = new AgentLimit(longestMatch(this.scoped, cardUrl)?.limits ?? this.base, redactQuery(cardUrl));
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

/** One set of bounds, read: `Infinity` where none is given. */
function resolve(value: unknown, path: Path): ResolvedLimits {
  const read = readLimits(value, path);
  return {
    maxInFlight: read.maxInFlight ?? Infinity,
    maxStartsPerSecond: read.maxStartsPerSecond ?? Infinity,
    maxQueued: read.maxQueued ?? QUEUED_DEFAULT,
  };
}
