/** The README's generated performance tables, written between `<!-- bench:start -->` and `<!-- bench:end -->`. */
import { readFileSync, writeFileSync } from 'node:fs';
import type { Results } from './results.js';
import type { Summary } from './stats.js';

const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

const LABELS: Record<string, string> = {
  a4h: 'a4h-a2a `turn()`',
  sdk: 'raw SDK `sendMessageStream`',
  floor: 'floor: undici + eventsource-parser + JSON.parse',
};

const n = (x: number, digits: number): string => x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
/** `median [min–max]`. */
const s = (summary: Summary | undefined, digits: number): string =>
  summary === undefined ? '–' : `${n(summary.median, digits)} [${n(summary.min, digits)}–${n(summary.max, digits)}]`;
const x = (value: number | undefined): string => (value === undefined ? '–' : `${value.toFixed(2)}×`);
const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
const table = (head: readonly string[], align: string, rows: readonly (readonly string[])[]): string =>
  [row(head), `|${align}|`, ...rows.map(row)].join('\n');

/** The generated section. */
export function renderSection(r: Results): string {
  const out: string[] = [];
  const tp = r.throughput;
  const load = r.machine.loadAverage;
  out.push(
    `Generated ${r.generatedAt.slice(0, 10)} by \`npm run bench\` in ${r.durationSec} s: Node ${r.machine.node}, ${r.machine.cores} cores ` +
      `(${r.machine.cpu}), ${r.machine.platform}; load average ${load.start[0]} at the start, ${load.end[0]} at the end. ` +
      `@a2a-js/sdk ${r.versions['@a2a-js/sdk']}, rxjs ${r.versions['rxjs']}, undici ${r.versions['undici']}. ` +
      `Cells are median [min–max] over rounds, each contender in a fresh process per round, contenders alternating; ` +
      `"× SDK" is the ratio of medians (the median of the per-round ratios in parentheses). ` +
      `Replay agent checked against a real SDK server: ${r.replay.identical ? 'byte-identical after normalising ids' : 'DIFFERENT'}.`,
    '',
    table(
      ['target', 'goal', 'measured', ''],
      '---|---|---|---',
      r.targets.map((t) => [t.name, t.target, t.value, t.met ? 'met' : '**not met**']),
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
          LABELS[c] ?? c,
          s(m['eventsPerSec'], 0),
          s(m['cpuMsPer1kEvents'], 2),
          ratio ? `${x(ratio['eventsPerSec']?.ofMedians)} (${x(ratio['eventsPerSec']?.paired)})` : '1',
          ratio ? `${x(ratio['cpuMsPer1kEvents']?.ofMedians)} (${x(ratio['cpuMsPer1kEvents']?.paired)})` : '1',
          s(m['peakRssMb'], 0),
        ];
      }),
    ),
    '',
    '**2. Time to first event** (first artifact chunk of a 20-chunk turn). Warm: 40 sequential turns after 5 warm-up turns in the same process; cold: the first turn of the process (card fetch, new connection; the floor fetches no card).',
    '',
    table(
      ['contender', 'warm ms', 'warm p90 ms', 'cold ms'],
      '---|--:|--:|--:',
      Object.entries(r.firstEvent.contenders).map(([c, m]) => [LABELS[c] ?? c, s(m['warmMs'], 2), s(m['warmP90Ms'], 2), s(m['coldMs'], 1)]),
    ),
    '',
    `**3. Concurrency**: ${n(r.concurrency.turns, 0)} concurrent turns of ${r.concurrency.n} chunks (after one unmeasured batch that fills the pool), then ${n(r.concurrency.turns, 0)} turns held open after their first chunk to weigh an open turn (after a forced GC).`,
    '',
    table(
      ['contender', 'wall ms', 'events/s', 'CPU ms per 1,000 events', 'first chunk p50 / p99 ms', 'peak RSS MB', 'heap KB per open turn'],
      '---|--:|--:|--:|--:|--:|--:',
      Object.entries(r.concurrency.contenders).map(([c, m]) => [
        LABELS[c] ?? c,
        s(m['wallMs'], 0),
        s(m['eventsPerSec'], 0),
        s(m['cpuMsPer1kEvents'], 2),
        `${n(m['ttfeP50Ms']!.median, 0)} / ${n(m['ttfeP99Ms']!.median, 0)}`,
        s(m['peakRssMb'], 0),
        s(m['heapKbPerOpenTurn'], 1),
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
    '**4. Reply assembly**: µs per chunk. "Ladder" is `runTurn` over a port that makes the events as it hands them over (tracker, watchdogs, renderer; no wire); "+ turnState" also folds every event into a `TurnView`; "end to end" is a whole turn against the replay agent.',
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
    `**5. Card cache**: ${n(r.cardCache.turns, 0)} concurrent turns to an agent nobody had asked yet made ${r.cardCache.rounds.map((c) => c.fetches).join(' and ')} card fetch(es) (rounds: ${r.cardCache.rounds.map((c) => `${n(c.wallMs, 0)} ms`).join(', ')} for all turns).`,
    '',
    '**6. Identity**: contextId derivations per second (same ids from all four).',
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
    profileSection(r),
    '',
    readings(r),
  );
  return out.join('\n');
}

/** The figures the explanation above rests on, computed from this run. */
function readings(r: Results): string {
  const cat = (contender: 'a4h' | 'sdk' | 'floor', name: string): number =>
    r.profile[contender].categories.find((c) => c.category === name)?.msPer1kEvents ?? 0;
  const busy = (contender: 'a4h' | 'sdk' | 'floor'): number => r.profile[contender].busyMs / (r.profile[contender].events / 1000);
  const library = cat('a4h', 'a4h-a2a') + cat('a4h', 'rxjs');
  const setup = r.concurrency.withoutWire;
  const ladderUs = setup['ladder']?.['cpuUsPerTurn']?.median ?? 0;
  const clientUs = setup['client']?.['cpuUsPerTurn']?.median ?? 0;
  const deriveUs = r.identity.kinds['client']?.['cpuUsPerId']?.median ?? 0;
  const nodeUs = r.identity.kinds['node-hmac']?.['cpuUsPerId']?.median ?? 0;
  const heap = (c: string): number => r.concurrency.contenders[c]?.['heapKbPerOpenTurn']?.median ?? 0;
  const cpu = (c: string): number => r.concurrency.contenders[c]?.['cpuMsPer1kEvents']?.median ?? 0;
  const perTurn = (msPer1k: number): number => (msPer1k * (r.concurrency.n + 3)) / 1000;
  return [
    'In this run:',
    '',
    `- a4h-a2a's own code and RxJS take ${n(library, 2)} ms per 1,000 events (${n((library / busy('a4h')) * 100, 0)}% of its process's busy time); ` +
      `GC takes ${n(cat('a4h', 'GC'), 2)} ms there against ${n(cat('sdk', 'GC'), 2)} in the raw SDK's process.`,
    `- The raw SDK's process is busy ${n(busy('sdk'), 2)} ms per 1,000 events against the floor's ${n(busy('floor'), 2)}: ` +
      `its per-event decoding (\`@a2a-js/sdk\` ${n(cat('sdk', '@a2a-js/sdk'), 2)} ms, microtask resumption ${n(cat('sdk', 'V8 builtins (microtasks, …)'), 2)} ms) is the largest cost of any SDK-based client.`,
    `- Per turn, apart from its events: the ladder ${n(ladderUs, 0)} µs CPU, the client facade ${n(clientUs - ladderUs, 0)} µs more, ` +
      `of which about ${n(deriveUs, 0)} µs is the contextId derivation (Web Crypto; node:crypto's \`createHmac\` takes ${n(nodeUs, 0)} µs). ` +
      `Under 1,000 concurrent ${r.concurrency.n}-chunk turns a4h-a2a spends ${n(perTurn(cpu('a4h')), 2)} ms CPU per turn, the raw SDK ${n(perTurn(cpu('sdk')), 2)} ms.`,
    `- An open turn weighs ${n(heap('a4h'), 1)} KB of heap with a4h-a2a, ${n(heap('sdk'), 1)} KB with the raw SDK and ${n(heap('floor'), 1)} KB with the floor; ` +
      `without the wire the ladder's subscription alone is ${n(setup['ladder']?.['heapKbPerOpenTurn']?.median ?? 0, 1)} KB.`,
  ].join('\n');
}

const IDENTITY_LABELS: Record<string, string> = {
  client: "a client's `contextId()` (key imported once), one at a time",
  'client-batch': "a client's `contextId()`, 1,000 at a time",
  deriveContextId: 'standalone `deriveContextId` (imports the key each call)',
  'node-hmac': 'node:crypto `createHmac` (reference)',
};

function profileSection(r: Results): string {
  const categories = new Set<string>();
  for (const p of Object.values(r.profile)) for (const c of p.categories) categories.add(c.category);
  const per1k = (contender: 'a4h' | 'sdk' | 'floor', category: string): string => {
    const found = r.profile[contender].categories.find((c) => c.category === category);
    return found ? n(found.msPer1kEvents, 2) : '–';
  };
  const a4h = r.profile.a4h;
  return [
    `**Where the CPU goes**: \`node --cpu-prof\` (100 µs sampling) of ${r.profile.a4h.rounds} throughput processes per contender (alternating), self time during the measured streams only, in ms per 1,000 events, the median per category (a4h-a2a's positions mapped to \`src/\`; "bench driver" is the benchmark's own consumer, which for the floor includes its \`JSON.parse\`; profiles kept in \`dist/bench/profiles/\`).`,
    '',
    table(
      ['category', 'a4h-a2a', 'raw SDK', 'floor'],
      '---|--:|--:|--:',
      [...categories]
        .map((c) => [c, per1k('a4h', c), per1k('sdk', c), per1k('floor', c)])
        .concat([
          [
            '**busy, total**',
            n(r.profile.a4h.busyMs / (a4h.events / 1000), 2),
            n(r.profile.sdk.busyMs / (r.profile.sdk.events / 1000), 2),
            n(r.profile.floor.busyMs / (r.profile.floor.events / 1000), 2),
          ],
        ]),
    ),
    '',
    'Top self time in the a4h-a2a process (its median profile), and the top functions of a4h-a2a and RxJS alone:',
    '',
    table(
      ['function', 'where', 'ms per 1,000 events', '% of busy'],
      '---|---|--:|--:',
      a4h.top
        .slice(0, 12)
        .map((l) => [`\`${l.function}\``, l.where ? `\`${l.where}\`` : l.category, n(l.msPer1kEvents, 3), n(l.percent, 1)]),
    ),
    '',
    table(
      ['a4h-a2a / RxJS function', 'where', 'ms per 1,000 events', '% of busy'],
      '---|---|--:|--:',
      a4h.library.slice(0, 10).map((l) => [`\`${l.function}\``, `\`${l.where}\``, n(l.msPer1kEvents, 3), n(l.percent, 1)]),
    ),
  ].join('\n');
}

/** Rewrites the README between the markers; false when the markers are missing. */
export function writeReadme(path: string, results: Results): boolean {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) return false;
  writeFileSync(path, `${text.slice(0, start + START.length)}\n${renderSection(results)}\n${text.slice(end)}`);
  return true;
}
