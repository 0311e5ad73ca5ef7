/** docs/performance.md's "Where the CPU goes" tables and the "In this run" readings under them. */
import { CONTENDERS, type Contender } from './drivers/types.js';
import { n, shortLabel, table } from './report-format.js';
import type { Results } from './results.js';

/** The profiled contenders, in the order of `CONTENDERS` (results before the fourth one have three). */
const profiled = (r: Results): Contender[] => CONTENDERS.filter((c) => r.profile[c] !== undefined);

/** Self time of `category` in `contender`'s median profile, ms per 1,000 events (0 when absent). */
const cat = (r: Results, contender: Contender, name: string): number =>
  r.profile[contender]?.categories.find((c) => c.category === name)?.msPer1kEvents ?? 0;

/** Busy (non-idle) ms per 1,000 events in `contender`'s profiles. */
const busy = (r: Results, contender: Contender): number => {
  const p = r.profile[contender];
  return p === undefined ? 0 : p.busyMs / (p.events / 1000);
};

/** The profile tables: categories per contender, then the a4h-a2a process's top functions. */
export function profileSection(r: Results): string {
  const contenders = profiled(r);
  const categories = new Set<string>();
  for (const c of contenders) for (const { category } of r.profile[c]!.categories) categories.add(category);
  const per1k = (contender: Contender, category: string): string => {
    const found = r.profile[contender]?.categories.find((c) => c.category === category);
    return found ? n(found.msPer1kEvents, 2) : '–';
  };
  const a4h = r.profile.a4h;
  const out = [
    `**Where the CPU goes**: \`node --cpu-prof\` (100 µs sampling) of ${a4h?.rounds ?? 0} throughput processes per contender (alternating), self time during the measured streams only, in ms per 1,000 events, the median per category (a4h-a2a's positions mapped to \`src/\`; "bench driver" is the benchmark's own consumer, which for the floor includes its \`JSON.parse\`; profiles kept in \`dist/bench/profiles/\`).`,
    '',
    table(
      ['category', ...contenders.map(shortLabel)],
      ['---', ...contenders.map(() => '--:')].join('|'),
      [...categories]
        .map((category) => [category, ...contenders.map((c) => per1k(c, category))])
        .concat([['**busy, total**', ...contenders.map((c) => n(busy(r, c), 2))]]),
    ),
  ];
  if (a4h === undefined) return out.join('\n');
  out.push(
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
  );
  return out.join('\n');
}

/** The figures the explanation above rests on, computed from this run. */
export function readings(r: Results): string {
  const library = cat(r, 'a4h', 'a4h-a2a') + cat(r, 'a4h', 'rxjs');
  const setup = r.concurrency.withoutWire;
  const ladderUs = setup['ladder']?.['cpuUsPerTurn']?.median ?? 0;
  const clientUs = setup['client']?.['cpuUsPerTurn']?.median ?? 0;
  const deriveUs = r.identity.kinds['client']?.['cpuUsPerId']?.median ?? 0;
  const nodeUs = r.identity.kinds['node-hmac']?.['cpuUsPerId']?.median ?? 0;
  const heap = (c: string): number => r.concurrency.contenders[c]?.['heapKbPerOpenTurn']?.median ?? 0;
  const cpu = (c: string): number => r.concurrency.contenders[c]?.['cpuMsPer1kEvents']?.median ?? 0;
  const perTurn = (msPer1k: number): number => (msPer1k * (r.concurrency.n + 3)) / 1000;
  const tpCpu = (c: string): number | undefined => r.throughput.contenders[c]?.['cpuMsPer1kEvents']?.median;
  const lines = [
    'In this run:',
    '',
    `- a4h-a2a's own code and RxJS take ${n(library, 2)} ms per 1,000 events (${n((library / busy(r, 'a4h')) * 100, 0)}% of its process's busy time); ` +
      `GC takes ${n(cat(r, 'a4h', 'GC'), 2)} ms there against ${n(cat(r, 'sdk', 'GC'), 2)} in the raw SDK's process.`,
    `- The raw SDK's process is busy ${n(busy(r, 'sdk'), 2)} ms per 1,000 events against the floor's ${n(busy(r, 'floor'), 2)}: ` +
      `its per-event decoding (\`@a2a-js/sdk\` ${n(cat(r, 'sdk', '@a2a-js/sdk'), 2)} ms, microtask resumption ${n(cat(r, 'sdk', 'V8 builtins (microtasks, …)'), 2)} ms) is what a client reading its streams through the SDK pays.`,
  ];
  const own = tpCpu('a4h');
  const sdkReader = tpCpu('a4h-sdk-reader');
  if (own !== undefined && sdkReader !== undefined)
    lines.push(
      `- The reader: the same client spends ${n(own, 2)} ms CPU per 1,000 events with its own stream reader and ${n(sdkReader, 2)} ms with the SDK's ` +
        `(the raw SDK ${n(tpCpu('sdk') ?? 0, 2)} ms, the floor ${n(tpCpu('floor') ?? 0, 2)} ms).`,
    );
  lines.push(
    `- Per turn, apart from its events: the ladder ${n(ladderUs, 0)} µs CPU, the client facade ${n(clientUs - ladderUs, 0)} µs more, ` +
      `of which about ${n(deriveUs, 0)} µs is the contextId derivation (Web Crypto; node:crypto's \`createHmac\` takes ${n(nodeUs, 0)} µs). ` +
      `Under 1,000 concurrent ${r.concurrency.n}-chunk turns a4h-a2a spends ${n(perTurn(cpu('a4h')), 2)} ms CPU per turn, the raw SDK ${n(perTurn(cpu('sdk')), 2)} ms.`,
    `- An open turn weighs ${n(heap('a4h'), 1)} KB of heap with a4h-a2a, ${n(heap('sdk'), 1)} KB with the raw SDK and ${n(heap('floor'), 1)} KB with the floor; ` +
      `without the wire the ladder's subscription alone is ${n(setup['ladder']?.['heapKbPerOpenTurn']?.median ?? 0, 1)} KB.`,
  );
  const gw = r.gateway;
  const a4h = gw?.contenders['a4h'];
  const sdk = gw?.contenders['sdk'];
  if (gw !== undefined && a4h !== undefined && sdk !== undefined) {
    const usPerEvent = (m: typeof a4h): number => ((m['cpuPercent']!.median / 100) * 1e6) / m['eventsPerSec']!.median;
    lines.push(
      `- A gateway holding ${n(gw.turns, 0)} open turns at one event a second each: a4h-a2a ${n(a4h['cpuPercent']!.median, 1)}% of a core ` +
        `(${n(usPerEvent(a4h), 0)} µs per event, timers and idle connections included) and ${n(a4h['rssMbMedian']!.median, 0)} MB RSS, ` +
        `the raw SDK ${n(sdk['cpuPercent']!.median, 1)}% (${n(usPerEvent(sdk), 0)} µs) and ${n(sdk['rssMbMedian']!.median, 0)} MB.`,
    );
  }
  return lines.join('\n');
}
