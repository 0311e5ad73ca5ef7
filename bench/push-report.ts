/**
 * docs/performance.md's push section ("Long tasks waiting by push"): its table, written by `npm run
 * bench:push` between `<!-- push:start -->` and `<!-- push:end -->`. Nothing else on the page is touched.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { percentile } from './push-sockets.js';
import type { RunResult } from './push-result.js';

const START = '<!-- push:start -->';
const END = '<!-- push:end -->';

const fmt = (value: number, digits = 0): string =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–';

function label(r: RunResult): string {
  const finish = r.finishPerSecond > 0 ? `finished ${fmt(r.finishPerSecond)} a second` : 'all finished at once';
  if (r.mode === 'stream') return `streams, ${finish}`;
  return `push, a GetTask every ${fmt((r.checkEveryMs ?? 0) / 1000)} s, ${finish}`;
}

function row(r: RunResult): string {
  const heap = r.memory.waiting.heapUsedMb - r.memory.baseline.heapUsedMb;
  const latencies = r.mode === 'push' ? r.fromPost : r.fromPublish;
  const over = latencies.filter((ms) => ms > 1000).length;
  const held = `${fmt(r.toAgent.last)} (most ${fmt(r.toAgent.max)}; none in ${fmt(r.toAgent.zeroShare * 100)}% of samples)`;
  return [
    label(r),
    `${fmt(r.parked)} / ${fmt(r.knownTasks)}`,
    held,
    fmt(r.fromAgentMax),
    `${fmt(r.memory.waiting.heapUsedMb, 1)} (+${fmt(heap, 1)}; ${fmt((heap * 1024) / r.n, 1)} KB a turn)`,
    fmt(r.memory.waiting.rssMb),
    `${fmt(percentile(latencies, 50))} / ${fmt(percentile(latencies, 99))} / ${fmt(Math.max(...latencies))}`,
    `${fmt(over)} of ${fmt(latencies.length)}`,
    r.mode === 'push' ? `${fmt(percentile(r.postToShown, 50))} / ${fmt(percentile(r.postToShown, 99))}` : '–',
    `${fmt(r.finishCpuMs.client / 1000, 1)} / ${fmt(r.finishCpuMs.agent / 1000, 1)}`,
    `${fmt(r.ended)} (${fmt(r.allEndedMs / 1000, 1)} s)`,
  ].join(' | ');
}

/** The day and what the runner knows of the machine, for the section's first line (kept with the run's figures). */
export function machineNote(fdLimit: string): string {
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(', ');
  const day = new Date().toISOString().slice(0, 10);
  return `${day}; ${cpus().length} cores, shared (load ${load} at the start), Node ${process.version}, \`ulimit -n\` ${fdLimit}`;
}

/** The section's generated part: the machine, the table, the receiver's counts, the notes the numbers need. */
export function renderPushSection(results: readonly RunResult[], machine: string): string {
  const n = results[0]?.n ?? 0;
  const push = results.filter((r) => r.mode === 'push');
  const refused = push.map((r) => {
    const outcomes = Object.entries(r.receiverAfter ?? {})
      .map(([outcome, count]) => `${outcome} ${fmt(count)}`)
      .join(', ');
    return `${label(r)}: ${outcomes}`;
  });
  return [
    `${fmt(n)} turns waiting, started ${fmt(results[0]?.startPerSecond ?? 0)} a second; the receiver's \`maxConcurrent\` ${fmt(push[0]?.maxConcurrent ?? 0)};`,
    `${machine}. Counts and ratios say more than the milliseconds here:`,
    'the agent, the client and their kernels share two cores with other work.',
    '',
    "| followed by | tasks parked / turns that knew their task | connections to the agent at the window's end | agent's connections to the receiver (most) | client heap after GC, MB | client RSS, MB | completion → `end`, ms p50 / p99 / max | over 1 s | the push alone (POST → status shown), p50 / p99 | CPU s from the finish, client / agent | turns ended (last after) |",
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...results.map((r) => `| ${row(r)} |`),
    '',
    `The receiver's outcomes by the end: ${refused.join('; ')}. Pushes the agent's sender gave up on (refused or`,
    `past its 5 s timeout; it does not retry): ${push.map((r) => `${label(r)}: ${fmt(r.pushFailures)}`).join('; ')}.`,
    `Turns waiting took ${results.map((r) => `${fmt(r.waitingAfterMs / 1000, 0)} s`).join(', ')} to start (row by row).`,
  ].join('\n');
}

/** Rewrites the section between the markers; false when the markers are missing (the page's prose says how it is measured). */
export function writePushSection(path: string, section: string): boolean {
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start === -1 || end === -1 || end < start) return false;
  writeFileSync(path, `${text.slice(0, start + START.length)}\n${section}\n${text.slice(end)}`);
  return true;
}
