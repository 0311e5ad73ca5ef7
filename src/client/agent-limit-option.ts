import { A2AError } from '../errors.js';
import { bounded, Invalid, isObject, object, optional, whole, type Path } from '../validation.js';
import { longestMatch, parseScope, type UrlScope } from '../port/url-scope.js';

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
   * longest prefix of the agent's card URL wins, on whole path segments): these bounds instead of
   * those above (`{}`: none).
   */
  agents?: Readonly<Record<string, AgentLimits>>;
}

/** One agent's bounds, checked and with their defaults: `Infinity` where none. */
export interface ResolvedLimits {
  /** The most turns running at once. */
  maxInFlight: number;
  /** The most turns started in any one second (a whole number). */
  maxStartsPerSecond: number;
  /** The most turns waiting. */
  maxQueued: number;
}

/** The default of `maxQueued`. */
const QUEUED_DEFAULT = 1_000;

const readLimits = object(
  {
    maxInFlight: optional(bounded(whole, 1, Number.MAX_SAFE_INTEGER, 1)),
    maxStartsPerSecond: optional(bounded(whole, 1, 10_000, 1)),
    maxQueued: optional(bounded(whole, 0, Number.MAX_SAFE_INTEGER, QUEUED_DEFAULT)),
  },
  false,
);

/** An `agents` entry: where it applies (an origin, and a path prefix without its trailing slash) and its bounds. */
interface ScopedLimits extends UrlScope {
  limits: ResolvedLimits;
}

/**
 * The option, checked once (a bad value is a `config` error naming it): the bounds of an agent by
 * its card URL, an `agents` entry's when one covers it.
 */
export class AgentLimitsTable {
  private readonly base: ResolvedLimits;
  private readonly scoped: ScopedLimits[];

  constructor(option: AgentLimitsOption) {
    try {
      if (!isObject(option)) throw new Invalid([], 'must be an object');
      this.base = resolve(option, []);
      const agents: unknown = option.agents ?? {};
      if (!isObject(agents)) throw new Invalid(['agents'], 'must be an object');
      this.scoped = Object.entries(agents).map(([key, limits]) => ({ ...scopeOf(key), limits: resolve(limits, ['agents', key]) }));
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

  /** The bounds of the agent at `cardUrl`: the entry with the longest prefix of it (same origin, whole segments), else the option's. */
  of(cardUrl: string): ResolvedLimits {
    return longestMatch(this.scoped, cardUrl)?.limits ?? this.base;
  }
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

/** Where an `agents` key applies, as `credentials` keys are read: an http(s) origin or URL prefix, nothing else in it. */
function scopeOf(key: string): UrlScope {
  const scope = parseScope(key);
  if ('problem' in scope) throw new Invalid(['agents', key], scope.problem.replace(/^the key /, ''));
  return scope;
}
