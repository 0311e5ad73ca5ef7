/** The targets issue 13 ("Speed") sets, checked against `bench/results.json` (its shape: `results.ts`). */
import { grpcTargets } from './report-grpc.js';
import type { GatewayResults, Results, Target } from './results.js';
import type { Summary } from './stats.js';

const fixed = (x: number, digits: number): string =>
  x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const times = (x: number): string => `${fixed(x, 2)}×`;
const signed = (x: number, digits: number): string => `${x >= 0 ? '+' : '−'}${fixed(Math.abs(x), digits)}`;

/** The targets, each with the measured value and whether it is met. */
export function targetsOf(r: Results): Target[] {
  const tp = r.throughput.ratios['a4h/sdk']!;
  const sdkReader = r.throughput.ratios['a4h-sdk-reader/sdk'];
  const events = tp['eventsPerSec']!;
  const cpu = tp['cpuMsPer1kEvents']!;
  const readerNote = (key: string): string =>
    sdkReader?.[key] === undefined ? '' : `; with the SDK's reader ${times(sdkReader[key].ofMedians)}`;
  const throughputValue = `${times(events.ofMedians)} (paired ${times(events.paired)}${readerNote('eventsPerSec')})`;

  const conc = (c: string, key: string): number => r.concurrency.contenders[c]![key]!.median;
  /** a4h-a2a's median against the raw SDK's, under 1,000 concurrent turns. */
  const versus = (key: string, digits: number, unit: string): string =>
    `${fixed(conc('a4h', key), digits)} ${unit} vs ${fixed(conc('sdk', key), digits)} ${unit} (${times(conc('a4h', key) / conc('sdk', key))})`;
  const turns = r.concurrency.turns.toLocaleString('en');
  const rssOver = conc('a4h', 'peakRssMb') - conc('sdk', 'peakRssMb');

  const g = r.assembly.growth;
  const ttfe = r.firstEvent.a4hMinusSdkWarmMs;
  const coldOf = (c: string): number => r.firstEvent.contenders[c]!['coldMs']!.median;
  const coldOver = coldOf('a4h') - coldOf('sdk');
  const known = r.firstEvent.coldKnownThreadMs?.median;
  const knownThread =
    known === undefined ? '' : `; a known thread's, without the lookup: ${fixed(known, 1)} ms (${signed(known - coldOf('sdk'), 1)} ms)`;
  return [
    { name: 'event throughput, a4h-a2a / raw SDK', target: '≥ 1.00×', value: throughputValue, met: events.ofMedians >= 1 },
    {
      name: 'CPU per event, a4h-a2a / raw SDK',
      target: '≤ 1.00×',
      value: `${times(cpu.ofMedians)} (paired ${times(cpu.paired)}${readerNote('cpuMsPer1kEvents')})`,
      met: cpu.ofMedians <= 1,
    },
    ...grpcTargets(r),
    {
      name: 'event throughput, a4h-a2a / raw SDK: the goal beyond',
      target: 'goal ≥ 1.50×',
      value: throughputValue,
      met: events.ofMedians >= 1.5,
      goal: true,
    },
    {
      name: `wall time, ${turns} concurrent ${r.concurrency.n}-chunk turns`,
      target: '≤ raw SDK',
      value: versus('wallMs', 0, 'ms'),
      met: conc('a4h', 'wallMs') <= conc('sdk', 'wallMs'),
    },
    {
      name: `first-chunk p99, ${turns} concurrent turns`,
      target: '≤ raw SDK',
      value: versus('ttfeP99Ms', 0, 'ms'),
      met: conc('a4h', 'ttfeP99Ms') <= conc('sdk', 'ttfeP99Ms'),
    },
    {
      name: `peak RSS, ${turns} concurrent turns`,
      target: '≤ raw SDK + 10 MB',
      value: `${fixed(conc('a4h', 'peakRssMb'), 0)} MB vs ${fixed(conc('sdk', 'peakRssMb'), 0)} MB (${signed(rssOver, 0)} MB)`,
      met: rssOver <= 10,
    },
    ...firstMessagesRow(r),
    {
      name: 'heap per open turn',
      target: '≤ raw SDK',
      value: versus('heapKbPerOpenTurn', 1, 'KB'),
      met: conc('a4h', 'heapKbPerOpenTurn') <= conc('sdk', 'heapKbPerOpenTurn'),
    },
    {
      name: 'time per chunk, 100,000 / 1,000 chunks (ladder + renderer)',
      target: '≤ 1.20×',
      value:
        `${times(g.ladder)} (with turnState ${times(g.view)}; end to end ${times(g.endToEndA4h)}, raw SDK ${times(g.endToEndSdk)}; ` +
        `100,000 / 10,000: ${times(g.ladderFrom10k)}, with turnState ${times(g.viewFrom10k)})`,
      met: g.ladder <= 1.2 && g.view <= 1.2,
    },
    {
      name: 'time to first event (warm), a4h-a2a − raw SDK',
      target: '≤ +0.5 ms',
      value: `${signed(ttfe, 2)} ms`,
      met: ttfe <= 0.5,
    },
    {
      name: "a cold thread's first event (the process's first turn, a thread's first message)",
      target: '≤ raw SDK + 2 ms',
      value: `${fixed(coldOf('a4h'), 1)} ms vs ${fixed(coldOf('sdk'), 1)} ms (${signed(coldOver, 1)} ms)${knownThread}`,
      met: coldOver <= 2,
    },
    ...gatewayRows(r.gateway),
    {
      name: `card fetches, ${r.cardCache.turns.toLocaleString('en')} concurrent turns to a cold agent`,
      target: 'exactly 1',
      value: r.cardCache.rounds.map((round) => String(round.fetches)).join(', '),
      met: r.cardCache.exactlyOne,
    },
  ];
}

/**
 * As many concurrent first messages of new threads as the concurrency scenario's turns (a4h-a2a asks
 * `ListTasks` for a task left waiting on each first): wall time, reported with no goal. Absent from
 * runs before it.
 */
function firstMessagesRow(r: Results): Target[] {
  const a4h = r.concurrency.contenders['a4h']?.['firstOfThreadWallMs']?.median;
  const sdk = r.concurrency.contenders['sdk']?.['firstOfThreadWallMs']?.median;
  if (a4h === undefined || sdk === undefined || Number.isNaN(a4h) || Number.isNaN(sdk)) return [];
  return [
    {
      name: `wall time, ${r.concurrency.turns.toLocaleString('en')} concurrent ${r.concurrency.n}-chunk turns, each a new thread's first message`,
      target: 'report',
      value: `${fixed(a4h, 0)} ms vs ${fixed(sdk, 0)} ms (${times(a4h / sdk)})`,
      met: a4h <= sdk,
      informational: true,
    },
  ];
}

/** The gateway scenario's CPU share and RSS, a4h-a2a against the raw SDK: reported, with no goal. */
function gatewayRows(gw: GatewayResults | undefined): Target[] {
  const a4h = gw?.contenders['a4h'];
  const sdk = gw?.contenders['sdk'];
  if (gw === undefined || a4h === undefined || sdk === undefined) return [];
  const of = (m: Record<string, Summary>, key: string): number => m[key]!.median;
  const name = `${gw.turns.toLocaleString('en')} open turns, one event a second each`;
  const rss = of(a4h, 'rssMbMedian') - of(sdk, 'rssMbMedian');
  return [
    {
      name: `${name}: CPU share, a4h-a2a vs raw SDK`,
      target: 'report',
      value: `${fixed(of(a4h, 'cpuPercent'), 1)}% vs ${fixed(of(sdk, 'cpuPercent'), 1)}% of a core (${times(of(a4h, 'cpuPercent') / of(sdk, 'cpuPercent'))})`,
      met: of(a4h, 'cpuPercent') <= of(sdk, 'cpuPercent'),
      informational: true,
    },
    {
      name: `${name}: RSS, a4h-a2a vs raw SDK`,
      target: 'report',
      value:
        `${fixed(of(a4h, 'rssMbMedian'), 0)} MB vs ${fixed(of(sdk, 'rssMbMedian'), 0)} MB (${signed(rss, 0)} MB; ` +
        `peaks ${fixed(of(a4h, 'rssMbPeak'), 0)} and ${fixed(of(sdk, 'rssMbPeak'), 0)} MB)`,
      met: rss <= 0,
      informational: true,
    },
  ];
}

/** A target's verdict as docs/performance.md and the progress log say it. */
export function verdict(target: Target): string {
  if (target.informational) return 'reported';
  if (target.met) return 'met';
  return target.goal ? 'goal not met' : 'not met';
}
