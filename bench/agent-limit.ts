/**
 * What `agentLimits` costs when no bound is reached (issue 53): `node dist/bench/agent-limit.js [rounds]`
 * (after `tsc -p tsconfig.build.json && tsc -p bench/tsconfig.json`). a4h-a2a without the option, the same
 * client with bounds the run never reaches ({@link UNREACHED}: every turn through the gate, every start
 * counted against the rate) and the raw SDK, on the replay agent, in the full benchmark's throughput and
 * concurrency scenarios: each contender in a fresh process per round, the order rotating each round.
 * Writes its table into docs/performance.md between the `limit` markers.
 */
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { onContenderCore, pinAgents, pinningInWords } from './affinity.js';
import { LIMIT_CONTENDERS, UNREACHED, type LimitContender } from './agent-limit-driver.js';
import type { LimitJob } from './agent-limit-child.js';
import { startReplayServer } from './replay-server.js';
import { STEADY_YOUNG_GENERATION } from './rounds.js';
import { median } from './stats.js';

const CHILD = fileURLToPath(new URL('./agent-limit-child.js', import.meta.url));
const PAGE = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));
const START = '<!-- limit:start -->';
const END = '<!-- limit:end -->';

/** A figure of a child's result line, and how the table names it. */
interface Figure {
  key: string;
  label: string;
  digits: number;
}

const SCENARIOS: { name: string; job: (contender: LimitContender, agent: string) => LimitJob; figures: Figure[] }[] = [
  {
    name: 'throughput (one turn of 20,000 chunks, 3 measured after 2 warm)',
    job: (contender, agent) => ({ scenario: 'throughput', contender, agent, n: 20_000, warm: 2, measured: 3 }),
    figures: [
      { key: 'eventsPerSec', label: 'events/s', digits: 0 },
      { key: 'cpuMsPer1kEvents', label: 'CPU ms per 1k events', digits: 2 },
    ],
  },
  {
    name: 'concurrency (1,000 turns at once of 100 chunks)',
    job: (contender, agent) => ({ scenario: 'concurrency', contender, agent, turns: 1_000, n: 100 }),
    figures: [
      { key: 'wallMs', label: 'wall ms', digits: 0 },
      { key: 'cpuMsPer1kEvents', label: 'CPU ms per 1k events', digits: 2 },
      { key: 'ttfeP99Ms', label: 'first event p99, ms', digits: 0 },
      { key: 'heapKbPerOpenTurn', label: 'heap KB per open turn', digits: 1 },
    ],
  },
];

const pinning = pinAgents();
const rounds = Number(process.argv[2] ?? 5);
const loadStart = loadavg()[0]!;
const started = Date.now();
const server = await startReplayServer();
const lines: string[] = [];
try {
  // The gate alone, no wire: both clients in each process, a fresh process per round.
  const noWire: Record<string, number>[] = [];
  for (let round = 0; round < rounds; round++) noWire.push(await child({ scenario: 'no-wire', n: 20_000, turns: 10 }));
  lines.push(...noWireTable(noWire), '');
  for (const scenario of SCENARIOS) {
    const results: Record<LimitContender, Record<string, number>[]> = { a4h: [], 'a4h-limited': [], sdk: [] };
    for (let round = 0; round < rounds; round++) {
      for (let i = 0; i < LIMIT_CONTENDERS.length; i++) {
        const contender = LIMIT_CONTENDERS[(i + round) % LIMIT_CONTENDERS.length]!;
        results[contender].push(await child(scenario.job(contender, `${server.url}/`)));
        process.stderr.write(`${scenario.name.split(' ')[0]} round ${round + 1}/${rounds}: ${contender}\n`);
      }
    }
    lines.push(...table(scenario.name, scenario.figures, results), '');
  }
} finally {
  await server.close();
}
const note =
  `Generated ${new Date().toISOString().slice(0, 10)} by \`node dist/bench/agent-limit.js ${rounds}\` in ${Math.round((Date.now() - started) / 1000)} s: ` +
  `Node ${process.version}, ${pinningInWords(pinning)}; load average ${loadStart.toFixed(2)} at the start, ${loadavg()[0]!.toFixed(2)} at the end. ` +
  `${rounds} rounds; cells are median [min–max]; "limited ÷ a4h" is the median of each round's ratio (the two ran side by side), ` +
  `the SDK columns the ratio of medians. The bounds: \`${JSON.stringify(UNREACHED)}\`.`;
const section = [note, '', ...lines].join('\n').trimEnd();
process.stdout.write(`${section}\n`);
const page = readFileSync(PAGE, 'utf8');
const [from, to] = [page.indexOf(START), page.indexOf(END)];
if (from === -1 || to < from) process.stderr.write(`${PAGE} has no limit markers: nothing written\n`);
else writeFileSync(PAGE, `${page.slice(0, from + START.length)}\n${section}\n${page.slice(to)}`);

/** One job in a fresh process on the measured core; its JSON line. */
function child(job: LimitJob): Promise<Record<string, number>> {
  const heap = job.scenario === 'throughput' ? STEADY_YOUNG_GENERATION : [];
  const [command, args] = onContenderCore(['--expose-gc', ...heap, CHILD, JSON.stringify(job)]);
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { timeout: 180_000, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, A4H_IDENTITY_SECRET: '' } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${JSON.stringify(job)} failed: ${stderr || error.message}`));
        resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as Record<string, number>);
      },
    );
  });
}

/** The scenario's table: each figure's cells and ratios. */
function table(name: string, figures: Figure[], results: Record<LimitContender, Record<string, number>[]>): string[] {
  const cell = (values: number[], digits: number) =>
    `${fmt(median(values), digits)} [${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}]`;
  const rows = figures.map(({ key, label, digits }) => {
    const of = (contender: LimitContender) => results[contender].map((result) => result[key]!);
    const [plain, limited, sdk] = [of('a4h'), of('a4h-limited'), of('sdk')];
    const paired = median(limited.map((value, round) => value / plain[round]!));
    return `| ${label} | ${cell(plain, digits)} | ${cell(limited, digits)} | ${cell(sdk, digits)} | ${paired.toFixed(3)} | ${(median(plain) / median(sdk)).toFixed(2)} | ${(median(limited) / median(sdk)).toFixed(2)} |`;
  });
  return [
    `**${name}**`,
    '',
    '| figure | a4h-a2a | a4h-a2a + agentLimits (not reached) | raw SDK | limited ÷ a4h (paired) | a4h ÷ SDK | limited ÷ SDK |',
    '|---|--:|--:|--:|--:|--:|--:|',
    ...rows,
  ];
}

/** The no-wire rows: CPU µs per chunk of each client, and the paired ratio. */
function noWireTable(results: Record<string, number>[]): string[] {
  const cell = (values: number[], digits: number) =>
    `${fmt(median(values), digits)} [${fmt(Math.min(...values), digits)}–${fmt(Math.max(...values), digits)}]`;
  const of = (key: string) => results.map((result) => result[key]!);
  return [
    '**no wire (a turn of 20,000 chunks over a port that makes them as it hands them over; 10 pairs per process after 2 warm-up pairs)**',
    '',
    '| figure | a4h-a2a | a4h-a2a + agentLimits (not reached) | limited ÷ a4h (paired, per process) |',
    '|---|--:|--:|--:|',
    `| CPU µs per chunk | ${cell(of('plainUsPerChunk'), 3)} | ${cell(of('limitedUsPerChunk'), 3)} | ${cell(of('pairedRatio'), 3)} |`,
  ];
}

function fmt(value: number, digits: number): string {
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}
