/**
 * The scenarios a child process runs over one contender's driver against the replay agent. Each
 * returns one plain object; the child prints it as one JSON line.
 */
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';
import { FIRST_OF_THREAD, type Driver, type TurnOutcome } from './drivers/types.js';
import { median, quantile } from './stats.js';

/** Microseconds on the clock `--cpu-prof` timestamps use (CLOCK_MONOTONIC), to cut a profile to the measured window. */
export const monotonicMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Milliseconds of CPU (user + system) the process used since `since`. */
export const cpuMs = (since: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

export const peakRssMb = (): number => process.resourceUsage().maxRSS / 1024;

/** Throws unless the turn saw all `n` chunks (and, for a4h-a2a, assembled the whole reply). */
export function expectChunks(outcome: TurnOutcome, n: number, contender: string): void {
  if (outcome.chunks !== n) throw new Error(`${contender}: saw ${outcome.chunks} chunks of ${n}`);
  if (outcome.replyLength !== -1 && outcome.replyLength !== 16 * n)
    throw new Error(`${contender}: reply of ${outcome.replyLength} chars, expected ${16 * n}`);
}

/** The young generation's size (V8's new space, both semi-spaces), in bytes. */
export const youngGenerationBytes = (): number =>
  getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/**
 * One long stream at a time: `warm` unmeasured streams, then `measured` streams of `n` chunks, each
 * timed (wall, CPU, first chunk). The process's figure is the median of its measured streams. With
 * it, what the window says of the heap: the young generation's size at its start and end (it must
 * not grow in it, see `STEADY_YOUNG_GENERATION` in rounds.ts) and the page faults it took.
 */
export async function throughput(driver: Driver, contender: string, agent: string, n: number, warm: number, measured: number) {
  for (let i = 0; i < warm; i++) expectChunks(await driver.turn(agent, String(n), `warm-${i}`), n, contender);
  const youngAtStart = youngGenerationBytes();
  const faultsAtStart = process.resourceUsage().minorPageFault;
  const events = n + 3;
  const runs: { wallMs: number; cpuMs: number; ttfeMs: number }[] = [];
  const window = { startMicros: monotonicMicros(), endMicros: 0 };
  for (let i = 0; i < measured; i++) {
    let first = 0;
    const cpu = process.cpuUsage();
    const t0 = performance.now();
    const outcome = await driver.turn(agent, String(n), `run-${i}`, () => (first = performance.now()));
    const wallMs = performance.now() - t0;
    runs.push({ wallMs, cpuMs: cpuMs(cpu), ttfeMs: first - t0 });
    expectChunks(outcome, n, contender);
  }
  window.endMicros = monotonicMicros();
  const pageFaults = process.resourceUsage().minorPageFault - faultsAtStart;
  return {
    n,
    events,
    eventsPerSec: median(runs.map((r) => (events / r.wallMs) * 1000)),
    cpuMsPer1kEvents: median(runs.map((r) => (r.cpuMs / events) * 1000)),
    wallMsPerChunk: median(runs.map((r) => r.wallMs / n)),
    drainEventsPerSec: median(runs.map((r) => ((n - 1) / (r.wallMs - r.ttfeMs)) * 1000)),
    ttfeMs: median(runs.map((r) => r.ttfeMs)),
    peakRssMb: peakRssMb(),
    window,
    youngMbAtStart: youngAtStart / 1048576,
    youngMbAtEnd: youngGenerationBytes() / 1048576,
    pageFaults,
  };
}

/**
 * Time to the first artifact chunk. The first turn of the process is cold: a thread's first message
 * (card fetch, new connection, and for a4h-a2a the lookup for a task left waiting); after `warm`
 * turns, `samples` sequential short turns are timed with everything warm.
 */
export async function firstEvent(driver: Driver, contender: string, agent: string, warm: number, samples: number) {
  const timed = (thread: string): Promise<number> => timeToFirstChunk(driver, contender, agent, thread);
  const coldMs = await timed(`${FIRST_OF_THREAD}cold`);
  for (let i = 0; i < warm; i++) await timed(`warm-${i}`);
  const warmMs: number[] = [];
  for (let i = 0; i < samples; i++) warmMs.push(await timed(`sample-${i}`));
  // A new thread's first message, everything else warm: a4h-a2a asks ListTasks first (one round trip).
  const firstOfThreadMs: number[] = [];
  for (let i = 0; i < samples; i++) firstOfThreadMs.push(await timed(`${FIRST_OF_THREAD}${i}`));
  return { coldMs, warmMs: median(warmMs), warmP90Ms: quantile(warmMs, 0.9), firstOfThreadMs: median(firstOfThreadMs) };
}

/**
 * The process's first turn on a known thread (a4h-a2a asks no `ListTasks` first): the cold first
 * event without the lookup for a task left waiting, reported beside {@link firstEvent}'s cold one.
 */
export async function coldKnownThread(driver: Driver, contender: string, agent: string) {
  return { coldMs: await timeToFirstChunk(driver, contender, agent, 'cold') };
}

/** The time from a 20-chunk turn's start on `thread` to its first artifact chunk. */
async function timeToFirstChunk(driver: Driver, contender: string, agent: string, thread: string): Promise<number> {
  const n = 20;
  let first = 0;
  const t0 = performance.now();
  expectChunks(await driver.turn(agent, String(n), thread, () => (first = performance.now())), n, contender);
  return first - t0;
}

/**
 * `turns` concurrent streams of `n` chunks: one unmeasured batch (fills the keep-alive pool, each
 * turn a new thread's first message), one measured batch continuing the warm batch's threads (a
 * gateway's steady state), then `turns` streams of those threads held open after their first chunk
 * to weigh an open turn. Last, reported apart (after the peak RSS is read): `turns` concurrent first
 * messages of new threads (a4h-a2a asks `ListTasks` for a task left waiting on each first).
 */
export async function concurrency(driver: Driver, contender: string, agent: string, turns: number, n: number) {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with --expose-gc');
  const batch = (tag: string, text: string, onFirst: (ms: number) => void, t0: number) =>
    Promise.all(Array.from({ length: turns }, (_, i) => driver.turn(agent, text, `${tag}-${i}`, () => onFirst(performance.now() - t0))));
  // The warm batch's threads are known from then on: the measured and held turns continue them.
  (await batch('warm', String(n), () => undefined, 0)).forEach((o) => expectChunks(o, n, contender));
  gc();

  const firsts: number[] = [];
  const youngAtStart = youngGenerationBytes();
  const faultsAtStart = process.resourceUsage().minorPageFault;
  const window = { startMicros: monotonicMicros(), endMicros: 0 };
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  const outcomes = await batch('warm', String(n), (ms) => firsts.push(ms), t0);
  const wallMs = performance.now() - t0;
  const cpuUsed = cpuMs(cpu);
  window.endMicros = monotonicMicros();
  const pageFaults = process.resourceUsage().minorPageFault - faultsAtStart;
  const youngAtEnd = youngGenerationBytes();
  outcomes.forEach((o) => expectChunks(o, n, contender));
  const events = turns * (n + 3);

  // Memory per open turn: `turns` streams that stop after their first chunk until released.
  await settle(gc);
  const before = process.memoryUsage();
  let open = 0;
  let allOpen = (): void => undefined;
  const opened = new Promise<void>((resolve) => (allOpen = resolve));
  const held = batch('warm', `hold:${n}`, () => ++open === turns && allOpen(), performance.now());
  await opened;
  await settle(gc);
  const during = process.memoryUsage();
  await fetch(new URL('/bench/release', agent), { method: 'POST' });
  (await held).forEach((o) => expectChunks(o, n, contender));
  const perTurnKb = (a: number, b: number): number => (b - a) / turns / 1024;
  const peakRss = peakRssMb();

  // Reported apart: as many concurrent first messages of new threads (the SDK and the floor do nothing different).
  const t1 = performance.now();
  (await batch(`${FIRST_OF_THREAD}new`, String(n), () => undefined, t1)).forEach((o) => expectChunks(o, n, contender));
  const firstOfThreadWallMs = performance.now() - t1;

  return {
    turns,
    n,
    wallMs,
    eventsPerSec: (events / wallMs) * 1000,
    cpuMsPer1kEvents: (cpuUsed / events) * 1000,
    ttfeP50Ms: quantile(firsts, 0.5),
    ttfeP99Ms: quantile(firsts, 0.99),
    peakRssMb: peakRss,
    heapKbPerOpenTurn: perTurnKb(before.heapUsed + before.external, during.heapUsed + during.external),
    firstOfThreadWallMs,
    window,
    youngMbAtStart: youngAtStart / 1048576,
    youngMbAtEnd: youngAtEnd / 1048576,
    pageFaults,
  };
}

/** Lets pending callbacks run, then collects twice, so a heap figure holds only what is reachable. */
async function settle(gc: () => void): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
  gc();
}

/** `turns` concurrent turns to an agent whose card nobody fetched yet; the server counts card fetches. */
export async function coldCard(driver: Driver, contender: string, agent: string, turns: number) {
  const n = 10;
  const t0 = performance.now();
  const outcomes = await Promise.all(Array.from({ length: turns }, (_, i) => driver.turn(agent, String(n), `cold-${i}`)));
  const wallMs = performance.now() - t0;
  outcomes.forEach((o) => expectChunks(o, n, contender));
  return { turns, wallMs, completed: outcomes.length };
}
