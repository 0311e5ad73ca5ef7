/** The shape of `bench/results.json` and the targets the issue sets, checked against it. */
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
  };
  versions: Record<string, string>;
  plan: object;
  replay: ReplayCheck;
  throughput: { n: number; contenders: ByContender; ratios: Ratios };
  firstEvent: { contenders: ByContender; ratios: Ratios; a4hMinusSdkWarmMs: number };
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
  profile: Record<'a4h' | 'sdk' | 'floor', ProfileSummary & { rounds: number }>;
  targets: Target[];
}

const fixed = (x: number, digits: number): string => x.toFixed(digits);

/** The targets, each with the measured value and whether it is met. */
export function targetsOf(r: Results): Target[] {
  const tp = r.throughput.ratios['a4h/sdk']!;
  const conc = r.concurrency.contenders['a4h']!;
  return [
    {
      name: 'event throughput, a4h-a2a / raw SDK',
      target: '≥ 0.90×',
      value: `${fixed(tp['eventsPerSec']!.ofMedians, 2)}× (paired ${fixed(tp['eventsPerSec']!.paired, 2)}×)`,
      met: tp['eventsPerSec']!.ofMedians >= 0.9,
    },
    {
      name: 'CPU per event, a4h-a2a / raw SDK',
      target: '≤ 1.15×',
      value: `${fixed(tp['cpuMsPer1kEvents']!.ofMedians, 2)}× (paired ${fixed(tp['cpuMsPer1kEvents']!.paired, 2)}×)`,
      met: tp['cpuMsPer1kEvents']!.ofMedians <= 1.15,
    },
    {
      name: 'time to first event (warm), a4h-a2a − raw SDK',
      target: '≤ 1 ms',
      value: `${r.firstEvent.a4hMinusSdkWarmMs >= 0 ? '+' : ''}${fixed(r.firstEvent.a4hMinusSdkWarmMs, 2)} ms`,
      met: r.firstEvent.a4hMinusSdkWarmMs <= 1,
    },
    {
      name: `peak RSS, ${r.concurrency.turns.toLocaleString('en')} concurrent turns (a4h-a2a)`,
      target: '< 256 MB',
      value: `${fixed(conc['peakRssMb']!.median, 0)} MB (max ${fixed(conc['peakRssMb']!.max, 0)})`,
      met: conc['peakRssMb']!.max < 256,
    },
    {
      name: 'time per chunk, 100,000 / 1,000 chunks (ladder + renderer)',
      target: '≤ 1.5×',
      value:
        `${fixed(r.assembly.growth.ladder, 2)}× (with turnState ${fixed(r.assembly.growth.view, 2)}×; end to end ${fixed(r.assembly.growth.endToEndA4h, 2)}×; ` +
        `100,000 / 10,000: ${fixed(r.assembly.growth.ladderFrom10k, 2)}×, with turnState ${fixed(r.assembly.growth.viewFrom10k, 2)}×)`,
      met: r.assembly.growth.ladder <= 1.5 && r.assembly.growth.view <= 1.5,
    },
    {
      name: `card fetches, ${r.cardCache.turns.toLocaleString('en')} concurrent turns to a cold agent`,
      target: 'exactly 1',
      value: r.cardCache.rounds.map((round) => String(round.fetches)).join(', '),
      met: r.cardCache.exactlyOne,
    },
  ];
}
