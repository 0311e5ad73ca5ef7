/**
 * A chat gateway at peak: `turns` open turns, each receiving one chunk a second for `seconds`
 * seconds from the replay agent (`pace:N:1000`). The turns start spread over `rampMs` (so their
 * events spread over each second); `settleMs` after every turn has seen its first chunk (the
 * opening's garbage collected), a steady window of `windowSec` seconds (shortened, down to half,
 * when opening took so long that it would not end before the first turn's last chunk) measures
 * the process: CPU
 * share, RSS each second, live heap at the middle (after a forced GC, whose CPU and pause are
 * left out), event-loop delay, and events received. Then every turn must finish whole.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import type { Driver, TurnOutcome } from './drivers/types.js';
import { cpuMs, expectChunks, peakRssMb } from './scenarios.js';
import { median } from './stats.js';

/** What the gateway scenario is asked for. */
export interface GatewayShape {
  turns: number;
  /** Chunks per turn, one a second. */
  seconds: number;
  /** Length of the measured window, in seconds, if it fits. */
  windowSec: number;
  /** The turns start spread evenly over this long. */
  rampMs: number;
  /** The pause between the last turn's first chunk and the window. */
  settleMs: number;
}

const INTERVAL_MS = 1000;
/** The event-loop delay histogram's sampling interval, which its figures include (subtracted below). */
const LOOP_RESOLUTION_MS = 10;
const MB = 1024 * 1024;
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Runs the gateway scenario over `driver`; see the module's comment. */
export async function gateway(driver: Driver, contender: string, agent: string, shape: GatewayShape) {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const { turns, seconds, rampMs, settleMs } = shape;
  gc();
  const base = process.memoryUsage();

  let open = 0;
  let finished = 0;
  let events = 0;
  let allOpen = (): void => undefined;
  const opened = new Promise<void>((resolve) => (allOpen = resolve));
  const onFirst = (): void => {
    if (++open === turns) allOpen();
  };
  const onChunk = (): void => {
    events++;
  };
  const text = `pace:${seconds}:${INTERVAL_MS}`;
  const outcomes: Promise<TurnOutcome>[] = [];
  const t0 = performance.now();
  const tally = (outcome: TurnOutcome): TurnOutcome => (finished++, outcome);
  await ramp(turns, rampMs, (i) => outcomes.push(driver.turn(agent, text, `gateway-${i}`, onFirst, onChunk).then(tally)));
  const rampedMs = performance.now() - t0;
  const all = Promise.all(outcomes);
  if (!(await Promise.race([opened.then(() => true), all.then(() => false)])))
    throw new Error(`${contender}: the turns ended before all ${turns} had seen a chunk`);
  const openedMs = performance.now() - t0;
  // The first turn's last chunk comes `seconds` after it started: the window ends a second before.
  const windowSec = Math.min(shape.windowSec, Math.floor(seconds - 1 - (openedMs + settleMs) / INTERVAL_MS));
  if (windowSec < shape.windowSec / 2)
    throw new Error(
      `${contender}: all turns open after ${Math.round(openedMs)} ms, leaving no ${shape.windowSec / 2} s window in ${seconds} s`,
    );

  await sleep(settleMs);
  const loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  const rss: number[] = [];
  let live = base;
  let gcCpuMs = 0;
  let gcWallMs = 0;
  loop.enable();
  const events0 = events;
  const cpu0 = process.cpuUsage();
  const w0 = performance.now();
  for (let s = 1; s <= windowSec; s++) {
    await sleep(w0 + s * INTERVAL_MS - performance.now());
    rss.push(process.memoryUsage.rss());
    if (s === Math.ceil(windowSec / 2)) {
      loop.disable();
      const cpu = process.cpuUsage();
      const g0 = performance.now();
      gc();
      gcWallMs = performance.now() - g0;
      gcCpuMs = cpuMs(cpu);
      live = process.memoryUsage();
      loop.enable();
    }
  }
  const wallMs = performance.now() - w0;
  const usedMs = cpuMs(cpu0);
  const windowEvents = events - events0;
  loop.disable();
  const finishedInWindow = finished;

  (await all).forEach((o) => expectChunks(o, seconds, contender));
  const heap = (m: NodeJS.MemoryUsage): number => m.heapUsed + m.external;
  return {
    turns,
    seconds,
    windowSec,
    rampedMs,
    openedMs,
    cpuPercent: ((usedMs - gcCpuMs) / (wallMs - gcWallMs)) * 100,
    rssMbMedian: median(rss) / MB,
    rssMbPeak: Math.max(...rss) / MB,
    heapMb: heap(live) / MB,
    heapKbPerOpenTurn: (heap(live) - heap(base)) / turns / 1024,
    loopDelayP99Ms: Math.max(0, loop.percentile(99) / 1e6 - LOOP_RESOLUTION_MS),
    loopDelayMaxMs: Math.max(0, loop.max / 1e6 - LOOP_RESOLUTION_MS),
    gcMs: gcWallMs,
    events: windowEvents,
    eventsPerSec: (windowEvents / wallMs) * 1000,
    /** Turns that had ended by the window's end: 0 when the window was steady throughout. */
    finishedInWindow,
    peakRssMb: peakRssMb(),
  };
}

/** Calls `start(i)` for i in 0..count-1, spread evenly over `ms` (in batches every 5 ms). */
async function ramp(count: number, ms: number, start: (i: number) => void): Promise<void> {
  const t0 = performance.now();
  let i = 0;
  while (i < count) {
    const due = Math.min(count, Math.floor(((performance.now() - t0) / ms) * count) + 1);
    while (i < due) start(i++);
    if (i < count) await sleep(5);
  }
}
