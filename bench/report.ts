/** The generated performance tables of docs/performance.md, written between `<!-- bench:start -->` and `<!-- bench:end -->`. */
import { readFileSync, writeFileSync } from 'node:fs';
import { label, n, s, table, x } from './report-format.js';
import { coalesceSection } from './report-coalesce.js';
import { grpcSection } from './report-grpc.js';
import { profileSection, readings } from './report-profile.js';
import type { GatewayResults, Results } from './results.js';
import { verdict } from './targets.js';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** The generated section. */
export function renderSection(r: Results): string {
  const out: string[] = [];
  const tp = r.throughput;
  const load = r.machine.loadAverage;
  out.push(
    `Generated ${r.generatedAt.slice(0, 10)} by \`npm run bench\` in ${r.durationSec} s: Node ${r.machine.node}, ${r.machine.cores} cores ` +
      `(${r.machine.cpu}), ${r.machine.platform}${r.machine.pinning ? `, ${r.machine.pinning}` : ''}; load average ${load.start[0]} at the start, ${load.end[0]} at the end. ` +
      `@a2a-js/sdk ${r.versions['@a2a-js/sdk']}, rxjs ${r.versions['rxjs']}, undici ${r.versions['undici']}. ` +
      `Cells are median [min–max] over rounds, each contender in a fresh process per round, contenders alternating; ` +
      `"× SDK" is the ratio of medians (the median of the per-round ratios in parentheses). ` +
      `Replay agent checked against a real SDK server: ${r.replay.identical ? 'byte-identical after normalising ids' : 'DIFFERENT'}.`,
    '',
    "a4h-a2a runs twice: with its own stream reader (the default) and with the SDK's transport reading its JSON-RPC streams " +
      "(`createSdkPorts({ reader: 'sdk' })`; the same pool, secret and output modes). The targets are issue 13's; the " +
      "throughput and CPU rows are a4h-a2a with its own reader against the raw SDK (the SDK reader's ratio in the cell), " +
      '"goal not met" marks the goal beyond the targets, "reported" a figure the issue asks for without a goal.',
    '',
    table(
      ['target', 'goal', 'measured', ''],
      '---|---|---|---',
      r.targets.map((t) => {
        const said = verdict(t);
        return [t.name, t.target, t.value, said === 'not met' ? '**not met**' : said];
      }),
    ),
    '',
    `**1. Event throughput**: one turn of ${n(tp.n, 0)} artifact chunks (${n(tp.n + 3, 0)} events), 3 measured streams per process after 2 warm-up streams.`,
    '',
    table(
      ['contender', 'events/s', 'CPU ms per 1,000 events', 'events/s × SDK', 'CPU × SDK', 'peak RSS MB'],
      '---|--:|--:|--:|--:|--:',
      Object.entries(tp.contenders).map(([c, m]) => {
        const ratio = tp.ratios[`${c}/sdk`];
        return [
          label(c),
          s(m['eventsPerSec'], 0),
          s(m['cpuMsPer1kEvents'], 2),
          ratio ? `${x(ratio['eventsPerSec']?.ofMedians)} (${x(ratio['eventsPerSec']?.paired)})` : '1',
          ratio ? `${x(ratio['cpuMsPer1kEvents']?.ofMedians)} (${x(ratio['cpuMsPer1kEvents']?.paired)})` : '1',
          s(m['peakRssMb'], 0),
        ];
      }),
    ),
    '',
    ...grpcSection(r),
    "**2. Time to first event** (first artifact chunk of a 20-chunk turn). Warm: 40 sequential turns after 5 warm-up turns in the same process, each a known thread's; a thread's first message: 40 more, each on a new thread, everything else warm (a4h-a2a asks `ListTasks` for a task left waiting first; the others do nothing different); cold: the first turn of the process, a thread's first message (card fetch, new connection; a4h-a2a then asks `ListTasks` for a task left waiting, at the interface the card names; the floor fetches no card).",
    '',
    table(
      ['contender', 'warm ms', 'warm p90 ms', "a thread's first message ms", 'cold ms'],
      '---|--:|--:|--:|--:',
      Object.entries(r.firstEvent.contenders).map(([c, m]) => [
        label(c),
        s(m['warmMs'], 2),
        s(m['warmP90Ms'], 2),
        m['firstOfThreadMs'] === undefined ? '–' : s(m['firstOfThreadMs'], 2),
        s(m['coldMs'], 1),
      ]),
    ),
    '',
    ...knownThreadLine(r),
    `**3. Concurrency**: ${n(r.concurrency.turns, 0)} concurrent turns of ${r.concurrency.n} chunks (after one unmeasured batch that fills the pool, each turn a new thread's first message; the measured turns continue those threads, as a gateway's steady state does), then ${n(r.concurrency.turns, 0)} turns of the same threads held open after their first chunk to weigh an open turn (after a forced GC). Last, after the peak RSS is read, ${n(r.concurrency.turns, 0)} concurrent first messages of new threads (a4h-a2a asks \`ListTasks\` for a task left waiting on each first; the others do nothing different): their wall time is the "first messages" column.`,
    '',
    table(
      [
        'contender',
        'wall ms',
        'events/s',
        'CPU ms per 1,000 events',
        'first chunk p50 / p99 ms',
        'peak RSS MB',
        'heap KB per open turn',
        'first messages: wall ms',
      ],
      '---|--:|--:|--:|--:|--:|--:|--:',
      Object.entries(r.concurrency.contenders).map(([c, m]) => [
        label(c),
        s(m['wallMs'], 0),
        s(m['eventsPerSec'], 0),
        s(m['cpuMsPer1kEvents'], 2),
        `${n(m['ttfeP50Ms']!.median, 0)} / ${n(m['ttfeP99Ms']!.median, 0)}`,
        s(m['peakRssMb'], 0),
        s(m['heapKbPerOpenTurn'], 1),
        m['firstOfThreadWallMs'] === undefined || Number.isNaN(m['firstOfThreadWallMs'].median) ? '–' : s(m['firstOfThreadWallMs'], 0),
      ]),
    ),
    '',
    `Without the wire (a synthetic port, ${n(5000, 0)} sequential one-chunk turns, then as many held open): what a turn costs apart from its events.`,
    '',
    table(
      ['a4h-a2a layer', 'CPU µs per turn', 'heap KB per open turn'],
      '---|--:|--:',
      Object.entries(r.concurrency.withoutWire).map(([kind, m]) => [
        kind === 'ladder' ? '`runTurn` (the ladder and renderer)' : '`createA2A().turn()` (+ contextId, threads, guard)',
        s(m['cpuUsPerTurn'], 0),
        s(m['heapKbPerOpenTurn'], 1),
      ]),
    ),
    '',
    '**4. Reply assembly**: µs per chunk (the measured turns\' time over their chunks, so the garbage collector\'s pauses count at every size). "Ladder" is `runTurn` over a port that makes the events as it hands them over (tracker, watchdogs, renderer; no wire); "+ turnState" also folds every event into a `TurnView`; "end to end" is a whole turn against the replay agent.',
    '',
    table(
      ['chunks', 'ladder', 'ladder + turnState', 'end to end, a4h-a2a', 'end to end, raw SDK'],
      '--:|--:|--:|--:|--:',
      Object.keys(r.assembly.ladder['ladder'] ?? {}).map((size) => [
        n(Number(size), 0),
        s(r.assembly.ladder['ladder']?.[size]?.['usPerChunk'], 3),
        s(r.assembly.ladder['view']?.[size]?.['usPerChunk'], 3),
        s(r.assembly.endToEnd['a4h']?.[size], 3),
        s(r.assembly.endToEnd['sdk']?.[size], 3),
      ]),
    ),
    '',
    ...gatewaySection(r.gateway),
    `**6. Card cache**: ${n(r.cardCache.turns, 0)} concurrent turns to an agent nobody had asked yet made ${r.cardCache.rounds.map((c) => c.fetches).join(' and ')} card fetch(es) (rounds: ${r.cardCache.rounds.map((c) => `${n(c.wallMs, 0)} ms`).join(', ')} for all turns).`,
    '',
    '**7. Identity**: contextId derivations per second (same ids from all four).',
    '',
    table(
      ['derivation', 'ids/s', 'CPU µs per id', '× node:crypto'],
      '---|--:|--:|--:',
      Object.entries(r.identity.kinds).map(([kind, m]) => [
        IDENTITY_LABELS[kind] ?? kind,
        s(m['perSec'], 0),
        s(m['cpuUsPerId'], 1),
        kind === 'node-hmac' ? '1' : x(r.identity.ratios[`${kind}/node-hmac`]?.['perSec']?.ofMedians),
      ]),
    ),
    '',
    ...coalesceSection(r.coalesce),
    profileSection(r),
    '',
    readings(r),
  );
  return out.join('\n');
}

/** The gateway scenario's table, or nothing for results written before it existed. */
function gatewaySection(gw: GatewayResults | undefined): string[] {
  if (gw === undefined) return [];
  const ratio = gw.ratios['a4h/sdk'];
  return [
    `**5. A chat gateway at peak**: ${n(gw.turns, 0)} turns open at once, each receiving one artifact chunk a second for ${gw.seconds} s (started spread over ${n(gw.rampMs / 1000, 1)} s, so their events spread over each second). ` +
      `Measured over a steady ${gw.windowSec}-s window from ${n(gw.settleMs / 1000, 0)} s after every turn has its first chunk (shorter if that came too late for the window to end before the first turn's last chunk): CPU time over wall time (100% is one core), ` +
      'RSS sampled each second, heap (used + external) after a forced GC at the middle of the window (its pause left out of the CPU share), event-loop delay. ' +
      'a4h-a2a with its own reader against the raw SDK; every turn must then end with all its chunks.',
    '',
    table(
      [
        'contender',
        'all open after s',
        'CPU % of a core',
        'RSS MB, median / peak',
        'heap MB',
        'heap KB per open turn',
        'loop delay p99 ms',
        'events/s',
        'CPU × SDK',
        'RSS × SDK',
      ],
      '---|--:|--:|--:|--:|--:|--:|--:|--:|--:',
      Object.entries(gw.contenders).map(([c, m]) => [
        label(c),
        n((m['openedMs']?.median ?? 0) / 1000, 1),
        s(m['cpuPercent'], 1),
        `${n(m['rssMbMedian']!.median, 0)} / ${n(m['rssMbPeak']!.median, 0)}`,
        s(m['heapMb'], 0),
        s(m['heapKbPerOpenTurn'], 1),
        s(m['loopDelayP99Ms'], 1),
        s(m['eventsPerSec'], 0),
        c === 'sdk' ? '1' : x(ratio?.['cpuPercent']?.ofMedians),
        c === 'sdk' ? '1' : x(ratio?.['rssMbMedian']?.ofMedians),
      ]),
    ),
    '',
  ];
}

const IDENTITY_LABELS: Record<string, string> = {
  client: "a client's `contextId()` (key imported once), one at a time",
  'client-batch': "a client's `contextId()`, 1,000 at a time",
  deriveContextId: 'standalone `deriveContextId` (imports the key each call)',
  'node-hmac': 'node:crypto `createHmac` (reference)',
};

/** Rewrites the page (docs/performance.md) between the markers; false when the markers are missing. */
export function writePerformancePage(path: string, results: Results): boolean {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) return false;
  writeFileSync(path, `${text.slice(0, start + START.length)}\n${renderSection(results)}\n${text.slice(end)}`);
  return true;
}

/** a4h-a2a's cold first event on a known thread (no lookup), when the run has it. */
function knownThreadLine(r: Results): string[] {
  const known = r.firstEvent.coldKnownThreadMs;
  if (known === undefined) return [];
  return [
    `In the same rounds, a fresh a4h-a2a process whose first turn is a known thread's (no \`ListTasks\` lookup first): cold ${known.median.toFixed(1)} ms.`,
    '',
  ];
}
