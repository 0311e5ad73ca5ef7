/**
 * `npm run bench`: every benchmark, contenders alternating in fresh processes against the replay
 * agent on 127.0.0.1; writes `bench/results.json` and the performance tables of docs/performance.md.
 */
import { pinAgents, pinningInWords } from './affinity.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { byContender, num, ratios } from './aggregate.js';
import { ASSEMBLY_VARIANTS, SETUP_KINDS } from './assembly.js';
import { COALESCE_PLAN, COALESCE_VARIANTS } from './coalesce.js';
import { CONTENDERS, GRPC_CONTENDERS } from './drivers/types.js';
import { startGrpcBenchAgent } from './grpc-agent.js';
import { runGateway } from './gateway-run.js';
import { IDENTITY_KINDS } from './identity.js';
import { runProfiles } from './profile-run.js';
import { startReplayServer } from './replay-server.js';
import { writePerformancePage } from './report.js';
import { runChild, runRounds } from './rounds.js';
import { median, ratio, summarize, type Summary } from './stats.js';
import type { Results } from './results.js';
import { targetsOf, verdict } from './targets.js';
import { verifyReplay } from './verify-replay.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const RESULTS = join(ROOT, 'bench/results.json');
const PERFORMANCE = join(ROOT, 'docs', 'performance.md');

/** The first-event rounds' extra process: a4h-a2a whose first turn is a known thread's. */
const KNOWN_THREAD = 'a4h-known-thread';

/**
 * Rounds and sizes: chosen so the whole run takes about ten minutes on 2 cores (the gateway two of them). The
 * concurrency scenario's rounds swing by a third on a shared machine (one process each): five give a median.
 */
const PLAN = {
  throughput: { n: 20_000, warm: 2, measured: 3, rounds: 7, warmupRounds: 1 },
  grpcThroughput: { n: 20_000, warm: 2, measured: 3, rounds: 4, warmupRounds: 1 },
  firstEvent: { warm: 5, samples: 40, rounds: 5, warmupRounds: 1 },
  concurrency: { turns: 1_000, n: 100, rounds: 5, warmupRounds: 0 },
  assembly: { sizes: [1_000, 10_000, 100_000], rounds: 5, minChunks: 200_000 },
  endToEnd: { sizes: [1_000, 10_000, 100_000], rounds: 2 },
  turnSetup: { count: 5_000, rounds: 3 },
  coldCard: { turns: 1_000, rounds: 2 },
  identity: { count: 20_000, rounds: 2 },
  gateway: { turns: 10_000, seconds: 60, windowSec: 45, rampMs: 2_000, settleMs: 2_000, rounds: 1 },
  coalesce: { ...COALESCE_PLAN, rounds: 2 },
  profile: { rounds: 3 },
} as const;

async function main(): Promise<void> {
  const started = Date.now();
  const loadStart = loadavg();
  const pinned = pinAgents();
  const server = await startReplayServer();
  const agent = `${server.url}/`;
  const say = (text: string): boolean => process.stderr.write(`${text}\n`);
  try {
    say(`replay agent at ${server.url}; checking it against a real @a2a-js/sdk server…`);
    const replay = await verifyReplay(server.url);
    if (!replay.identical) throw new Error(`the replay agent differs from the SDK server: ${JSON.stringify(replay.cases)}`);

    // 1. Event throughput.
    const t = PLAN.throughput;
    const throughputRuns = await runRounds(
      {
        label: 'throughput',
        contenders: CONTENDERS,
        rounds: t.rounds,
        warmupRounds: t.warmupRounds,
        job: (contender) => ({ scenario: 'throughput', contender, agent, n: t.n, warm: t.warm, measured: t.measured }),
        describe: (r) => `${Math.round(num(r, 'eventsPerSec'))} events/s, ${num(r, 'cpuMsPer1kEvents').toFixed(2)} ms CPU/1k`,
      },
      server,
    );
    const throughputKeys = ['eventsPerSec', 'cpuMsPer1kEvents', 'drainEventsPerSec', 'ttfeMs', 'peakRssMb', 'connections'];

    // 1b. Event throughput over gRPC: a4h-a2a against the SDK's own gRPC client, on the gRPC bench agent.
    const g = PLAN.grpcThroughput;
    const grpcAgent = await startGrpcBenchAgent();
    let grpcRuns: Awaited<ReturnType<typeof runRounds<(typeof GRPC_CONTENDERS)[number]>>>;
    try {
      grpcRuns = await runRounds(
        {
          label: 'gRPC throughput',
          contenders: GRPC_CONTENDERS,
          rounds: g.rounds,
          warmupRounds: g.warmupRounds,
          job: (contender) => ({ scenario: 'throughput', contender, agent: grpcAgent.url, n: g.n, warm: g.warm, measured: g.measured }),
          describe: (r) => `${Math.round(num(r, 'eventsPerSec'))} events/s, ${num(r, 'cpuMsPer1kEvents').toFixed(2)} ms CPU/1k`,
        },
        grpcAgent,
      );
    } finally {
      await grpcAgent.close();
    }
    const grpcKeys = ['eventsPerSec', 'cpuMsPer1kEvents', 'drainEventsPerSec', 'ttfeMs', 'peakRssMb'];

    // 2. Time to first event.
    // In the same rounds, a4h-a2a's process whose first turn is a known thread's (no lookup): reported beside the cold row.
    const f = PLAN.firstEvent;
    const { [KNOWN_THREAD]: coldKnownRuns, ...firstRuns } = await runRounds(
      {
        label: 'first event',
        contenders: [...CONTENDERS, KNOWN_THREAD],
        rounds: f.rounds,
        warmupRounds: f.warmupRounds,
        job: (contender) =>
          contender === KNOWN_THREAD
            ? { scenario: 'cold-known-thread', contender: 'a4h', agent }
            : { scenario: 'first-event', contender, agent, warm: f.warm, samples: f.samples },
        describe: (r) => ('warmMs' in r ? `warm ${num(r, 'warmMs').toFixed(2)} ms, ` : '') + `cold ${num(r, 'coldMs').toFixed(1)} ms`,
      },
      server,
    );

    // 3. Concurrency.
    const c = PLAN.concurrency;
    const concurrencyRuns = await runRounds(
      {
        label: 'concurrency',
        contenders: CONTENDERS,
        rounds: c.rounds,
        warmupRounds: c.warmupRounds,
        job: (contender) => ({ scenario: 'concurrency', contender, agent, turns: c.turns, n: c.n }),
        describe: (r) =>
          `${Math.round(num(r, 'wallMs'))} ms, peak RSS ${num(r, 'peakRssMb').toFixed(0)} MB, ${num(r, 'heapKbPerOpenTurn').toFixed(1)} KB heap/open turn`,
      },
      server,
    );
    const concurrencyKeys = [
      'wallMs',
      'eventsPerSec',
      'cpuMsPer1kEvents',
      'ttfeP50Ms',
      'ttfeP99Ms',
      'peakRssMb',
      'heapKbPerOpenTurn',
      'firstOfThreadWallMs',
      'connections',
    ];

    // 3b. What a turn costs apart from its events, and what an open turn weighs, without the wire.
    const setupRuns = await runRounds(
      {
        label: 'turn setup',
        contenders: SETUP_KINDS,
        rounds: PLAN.turnSetup.rounds,
        warmupRounds: 0,
        job: (kind) => ({ scenario: 'turn-setup', kind, count: PLAN.turnSetup.count }),
        describe: (r) => `${num(r, 'cpuUsPerTurn').toFixed(0)} µs CPU/turn, ${num(r, 'heapKbPerOpenTurn').toFixed(1)} KB heap/open turn`,
      },
      server,
    );

    // 4. Reply assembly: the ladder alone (synthetic port), then end to end.
    const a = PLAN.assembly;
    const sizes = a.sizes.map(String);
    const assembly: Record<string, Record<string, Record<string, Summary>>> = {};
    for (const variant of ASSEMBLY_VARIANTS) {
      const runs = await runRounds(
        {
          label: `assembly ${variant}`,
          contenders: sizes,
          rounds: a.rounds,
          warmupRounds: 0,
          job: (size) => ({ scenario: 'assembly', n: Number(size), variant, minChunks: a.minChunks }),
          describe: (r) => `${num(r, 'usPerChunk').toFixed(3)} µs/chunk`,
        },
        server,
      );
      assembly[variant] = byContender(runs, ['usPerChunk', 'cpuUsPerChunk', 'peakRssMb']);
    }
    const e = PLAN.endToEnd;
    const endToEnd: Record<string, Record<string, Summary>> = {};
    for (const size of e.sizes) {
      const measured = size >= 100_000 ? 2 : size >= 10_000 ? 3 : 10;
      const runs = await runRounds(
        {
          label: `end to end ${size}`,
          contenders: ['a4h', 'sdk'] as const,
          rounds: e.rounds,
          warmupRounds: 0,
          job: (contender) => ({
            scenario: 'throughput',
            contender,
            agent,
            n: size,
            warm: Math.max(1, Math.round(40_000 / size)),
            measured,
          }),
          describe: (r) => `${(num(r, 'wallMsPerChunk') * 1000).toFixed(3)} µs/chunk`,
        },
        server,
      );
      for (const [contender, rs] of Object.entries(runs)) {
        endToEnd[contender] ??= {};
        endToEnd[contender]![String(size)] = summarize(rs.map((r) => num(r, 'wallMsPerChunk') * 1000));
      }
    }

    // 5. Card cache: 1,000 concurrent turns to a cold agent.
    const cold: { fetches: number; wallMs: number }[] = [];
    for (let round = 0; round < PLAN.coldCard.rounds; round++) {
      const prefix = `/cold-${round}-${Date.now()}/`;
      const result = await runChild(
        { scenario: 'cold-card', contender: 'a4h', agent: `${server.url}${prefix}`, turns: PLAN.coldCard.turns },
        server,
      );
      cold.push({ fetches: server.cardFetches(prefix), wallMs: num(result, 'wallMs') });
      say(
        `[card cache] round ${round + 1}/${PLAN.coldCard.rounds}: ${cold.at(-1)!.fetches} card fetch(es) for ${PLAN.coldCard.turns} turns`,
      );
    }

    // 6. Identity.
    const identityRuns = await runRounds(
      {
        label: 'identity',
        contenders: IDENTITY_KINDS,
        rounds: PLAN.identity.rounds,
        warmupRounds: 0,
        job: (kind) => ({ scenario: 'identity', kind, count: PLAN.identity.count }),
        describe: (r) => `${Math.round(num(r, 'perSec'))} ids/s`,
      },
      server,
    );

    // 6b. Renders a screen can afford: a long reply through turnState(), every view against coalesced.
    const { rounds: coalesceRounds, ...coalescePlan } = PLAN.coalesce;
    const coalesceRuns = await runRounds(
      {
        label: 'coalesce',
        contenders: COALESCE_VARIANTS,
        rounds: coalesceRounds,
        warmupRounds: 0,
        job: (variant) => ({ scenario: 'coalesce', variant, ...coalescePlan }),
        describe: (r) => `${num(r, 'updates')} views, ${num(r, 'subscriberMs').toFixed(1)} ms CPU in the subscriber`,
      },
      server,
    );

    // 7. A chat gateway at peak: many open turns, one event a second each.
    const gateway = await runGateway(PLAN.gateway, agent, server);

    // CPU profiles: one throughput process per contender and round (alternating), measured streams only.
    const profile = await runProfiles({ ...t, rounds: PLAN.profile.rounds }, agent, server, ROOT);

    const results: Results = {
      generatedAt: new Date().toISOString(),
      durationSec: Math.round((Date.now() - started) / 1000),
      machine: {
        node: process.version,
        // The machine's cores (this process is pinned to one, so availableParallelism() says 1).
        cores: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        memoryGb: Math.round(totalmem() / 1024 ** 3),
        platform: `${process.platform} ${process.arch}`,
        loadAverage: { start: loadStart.map((x) => Number(x.toFixed(2))), end: loadavg().map((x) => Number(x.toFixed(2))) },
        pinning: pinningInWords(pinned),
      },
      versions: versions(),
      plan: PLAN,
      replay,
      throughput: {
        n: t.n,
        contenders: byContender(throughputRuns, throughputKeys),
        ratios: ratios(throughputRuns, throughputKeys, 'sdk'),
      },
      grpcThroughput: {
        n: g.n,
        contenders: byContender(grpcRuns, grpcKeys),
        ratios: ratios(grpcRuns, grpcKeys, 'sdk-grpc'),
      },
      firstEvent: {
        contenders: byContender(firstRuns, ['warmMs', 'warmP90Ms', 'coldMs', 'firstOfThreadMs']),
        ratios: ratios(firstRuns, ['warmMs', 'coldMs'], 'sdk'),
        a4hMinusSdkWarmMs: round3(median(firstRuns.a4h.map((r) => num(r, 'warmMs'))) - median(firstRuns.sdk.map((r) => num(r, 'warmMs')))),
        coldKnownThreadMs: summarize(coldKnownRuns.map((r) => num(r, 'coldMs'))),
      },
      concurrency: {
        turns: c.turns,
        n: c.n,
        contenders: byContender(concurrencyRuns, concurrencyKeys),
        ratios: ratios(concurrencyRuns, concurrencyKeys, 'sdk'),
        withoutWire: byContender(setupRuns, ['cpuUsPerTurn', 'wallUsPerTurn', 'heapKbPerOpenTurn']),
      },
      assembly: {
        ladder: assembly,
        endToEnd,
        growth: {
          ladder: growth(assembly['ladder']!, 'usPerChunk'),
          view: growth(assembly['view']!, 'usPerChunk'),
          ladderFrom10k: ratio(assembly['ladder']!['100000']!['usPerChunk']!.median, assembly['ladder']!['10000']!['usPerChunk']!.median),
          viewFrom10k: ratio(assembly['view']!['100000']!['usPerChunk']!.median, assembly['view']!['10000']!['usPerChunk']!.median),
          endToEndA4h: ratio(endToEnd['a4h']!['100000']!.median, endToEnd['a4h']!['1000']!.median),
          endToEndSdk: ratio(endToEnd['sdk']!['100000']!.median, endToEnd['sdk']!['1000']!.median),
        },
      },
      cardCache: { turns: PLAN.coldCard.turns, rounds: cold, exactlyOne: cold.every((r) => r.fetches === 1) },
      identity: {
        kinds: byContender(identityRuns, ['perSec', 'cpuUsPerId']),
        ratios: ratios(identityRuns, ['perSec'], 'node-hmac'),
      },
      gateway,
      coalesce: { ...coalescePlan, variants: byContender(coalesceRuns, ['updates', 'subscriberMs', 'cpuMs', 'wallMs']) },
      profile,
      targets: [],
    };
    results.targets = targetsOf(results);
    writeFileSync(RESULTS, `${JSON.stringify(results, null, 2)}\n`);
    say(`wrote ${RESULTS}`);
    if (writePerformancePage(PERFORMANCE, results)) say(`rewrote the performance table in ${PERFORMANCE}`);
    else say(`docs/performance.md has no <!-- bench:start --> / <!-- bench:end --> markers; left it alone`);
    for (const target of results.targets)
      say(`${verdict(target).toUpperCase().padEnd(12)} ${target.name}: ${target.value} (target ${target.target})`);
  } finally {
    await server.close();
  }
}

const round3 = (x: number): number => Math.round(x * 1000) / 1000;

/** Time per chunk at the largest size over the smallest. */
function growth(bySize: Record<string, Record<string, Summary>>, key: string): number {
  return ratio(bySize['100000']![key]!.median, bySize['1000']![key]!.median);
}

function versions(): Record<string, string> {
  const of = (path: string): string => (JSON.parse(readFileSync(join(ROOT, path), 'utf8')) as { version: string }).version;
  return {
    'a4h-a2a': of('package.json'),
    '@a2a-js/sdk': of('node_modules/@a2a-js/sdk/package.json'),
    rxjs: of('node_modules/rxjs/package.json'),
    undici: of('node_modules/undici/package.json'),
    'eventsource-parser': of('node_modules/eventsource-parser/package.json'),
  };
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
