/**
 * The gateway section of `npm run bench`: a4h-a2a, then the raw SDK, each in a fresh process per
 * round holding `turns` open turns that receive one event a second (see `gateway.ts`).
 */
import { byContender, num, ratios } from './aggregate.js';
import type { GatewayShape } from './gateway.js';
import type { ReplayServer } from './replay-server.js';
import type { GatewayResults } from './results.js';
import { runRounds, type ChildResult } from './rounds.js';

/** The issue asks for a4h-a2a against the raw SDK; in this order in the first round. */
const CONTENDERS = ['a4h', 'sdk'] as const;

const KEYS = [
  'cpuPercent',
  'rssMbMedian',
  'rssMbPeak',
  'heapMb',
  'heapKbPerOpenTurn',
  'loopDelayP99Ms',
  'loopDelayMaxMs',
  'eventsPerSec',
  'windowSec',
  'rampedMs',
  'openedMs',
  'peakRssMb',
  'connections',
];
const RATIO_KEYS = ['cpuPercent', 'rssMbMedian', 'rssMbPeak', 'heapMb', 'heapKbPerOpenTurn', 'loopDelayP99Ms', 'eventsPerSec'];

/** How many turns, for how long, and how often. */
export interface GatewayPlan extends GatewayShape {
  rounds: number;
}

/** Runs the rounds and folds them into the results' `gateway` section. */
export async function runGateway(plan: GatewayPlan, agent: string, server: ReplayServer): Promise<GatewayResults> {
  const { rounds, ...shape } = plan;
  const runs = await runRounds(
    {
      label: 'gateway',
      contenders: CONTENDERS,
      rounds,
      warmupRounds: 0,
      job: (contender) => ({ scenario: 'gateway', contender, agent, ...shape }),
      // The ramp, every turn's whole stream, and a minute for start-up, the last chunks and the pool's close.
      timeoutMs: Math.max(180_000, plan.rampMs + plan.seconds * 1000 + 60_000),
      describe: (r) => describe(r, plan),
    },
    server,
  );
  return {
    turns: plan.turns,
    seconds: plan.seconds,
    windowSec: plan.windowSec,
    rampMs: plan.rampMs,
    settleMs: plan.settleMs,
    contenders: byContender(runs, KEYS),
    ratios: ratios(runs, RATIO_KEYS, 'sdk'),
  };
}

/** The progress line: the window's figures, and a warning when it was not the steady state it should be. */
function describe(r: ChildResult, plan: GatewayPlan): string {
  const steady = num(r, 'finishedInWindow') === 0 && Math.abs(num(r, 'eventsPerSec') / plan.turns - 1) < 0.05;
  return (
    `${num(r, 'cpuPercent').toFixed(1)}% of a core, RSS ${num(r, 'rssMbMedian').toFixed(0)} MB (peak ${num(r, 'rssMbPeak').toFixed(0)}), ` +
    `heap ${num(r, 'heapMb').toFixed(0)} MB, loop delay p99 ${num(r, 'loopDelayP99Ms').toFixed(1)} ms, ` +
    `${Math.round(num(r, 'eventsPerSec'))} events/s over ${num(r, 'windowSec')} s, all open after ${Math.round(num(r, 'openedMs'))} ms` +
    (steady ? '' : ' (NOT STEADY: turns ended in the window or events off by more than 5%)')
  );
}
