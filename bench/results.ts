/** The shape of `bench/results.json` (its targets checked in `targets.ts`). */
import type { Contender } from './drivers/types.js';
import type { ProfileSummary } from './profile.js';
import type { Summary } from './stats.js';
import type { ReplayCheck } from './verify-replay.js';

type ByContender = Record<string, Record<string, Summary>>;
type Ratios = Record<string, Record<string, { ofMedians: number; paired: number }>>;

export interface Target {
  name: string;
  target: string;
  value: string;
  met: boolean;
  /** A goal beyond the targets: not meeting it is no failure. */
  goal?: true;
  /** A figure the issue asks to report, with no goal: `met` only says a4h-a2a's is at most the raw SDK's, no verdict. */
  informational?: true;
}

/** The gateway scenario: `turns` open turns, each receiving one event a second for `seconds`. */
export interface GatewayResults {
  turns: number;
  seconds: number;
  /** The steady window asked for, in seconds (each process's own, shorter when its turns opened late, is in `contenders`). */
  windowSec: number;
  /** The turns started spread over this long. */
  rampMs: number;
  /** The window began this long after every turn had its first chunk. */
  settleMs: number;
  /** `a4h` and `sdk`: cpuPercent, rssMbMedian, rssMbPeak, heapMb, heapKbPerOpenTurn, loopDelayP99Ms, eventsPerSec, … */
  contenders: ByContender;
  /** `a4h/sdk`. */
  ratios: Ratios;
}

/** Renders a screen can afford: a reply of `n` chunks through `turnState()`, every view against coalesced. */
export interface CoalesceResults {
  n: number;
  windowMs: number;
  /** The reply's chunks came `perTick` every `tickMs`. */
  perTick: number;
  tickMs: number;
  /** Measured turns per process. */
  measured: number;
  /** `every view` and `coalesced`: updates, subscriberMs (CPU), cpuMs (the whole turn), wallMs (to the last view). */
  variants: ByContender;
}

export interface Results {
  generatedAt: string;
  durationSec: number;
  machine: {
    node: string;
    cores: number;
    cpu: string;
    memoryGb: number;
    platform: string;
    loadAverage: { start: number[]; end: number[] };
    /** Where the agents and the measured processes ran (`affinity.ts`); absent in runs before it. */
    pinning?: string;
  };
  versions: Record<string, string>;
  plan: object;
  replay: ReplayCheck;
  throughput: { n: number; contenders: ByContender; ratios: Ratios };
  /** a4h-a2a against the SDK's own gRPC client on the gRPC bench agent (absent from runs before gRPC). */
  grpcThroughput?: { n: number; contenders: ByContender; ratios: Ratios };
  firstEvent: {
    contenders: ByContender;
    ratios: Ratios;
    a4hMinusSdkWarmMs: number;
    /** a4h-a2a's cold first event on a known thread (no lookup), in the same rounds; absent from runs before it. */
    coldKnownThreadMs?: Summary;
  };
  concurrency: {
    turns: number;
    n: number;
    contenders: ByContender;
    ratios: Ratios;
    /** Per kind (`ladder`: runTurn; `client`: createA2A().turn()), over a synthetic port. */
    withoutWire: ByContender;
  };
  assembly: {
    /** Per variant (`ladder`, `view`), per size. */
    ladder: Record<string, ByContender>;
    /** µs per chunk end to end, per contender, per size. */
    endToEnd: Record<string, Record<string, Summary>>;
    /** Time per chunk at 100,000 over 1,000 (and over 10,000). */
    growth: { ladder: number; view: number; ladderFrom10k: number; viewFrom10k: number; endToEndA4h: number; endToEndSdk: number };
  };
  cardCache: { turns: number; rounds: { fetches: number; wallMs: number }[]; exactlyOne: boolean };
  identity: { kinds: ByContender; ratios: Ratios };
  /** Absent from results written before the gateway scenario existed. */
  gateway?: GatewayResults;
  /** Absent from results written before the coalescing scenario existed. */
  coalesce?: CoalesceResults;
  /** Per contender profiled (results written before the fourth contender have three). */
  profile: Partial<Record<Contender, ProfileSummary & { rounds: number }>>;
  targets: Target[];
}
