/**
 * `npm run bench:push [-- --n N] [--check-ms MS] [--rate PER_SECOND] [--start-rate PER_SECOND]
 * [--max-concurrent K] [--write] [--from FILE]`: one gateway process with N long tasks waiting (10,000 by default)
 * followed by push, beside the same N followed by streams. Each cell runs in a fresh process
 * (bench/push-run.ts) with its own agent (bench/push-agent.ts); every cell starts its turns at
 * `--start-rate` a second (500) and the push cells' receiver reads `--max-concurrent` bodies at once (1,024):
 *
 * - streams, the tasks finished at `--rate` a second (200);
 * - push with a GetTask every `--check-ms` (5 min), finished at `--rate`;
 * - push with the library's default GetTask every 30 s, finished at `--rate`;
 * - push with a GetTask every `--check-ms`, every task finished at once (the burst).
 *
 * It prints the table and, with the full N (or `--write`), writes it into docs/performance.md's push
 * section (bench/push-report.ts); every figure is kept in dist/bench/push-results.json, which `--from`
 * renders again.
 */
import { execSync, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { machineNote, renderPushSection, writePushSection } from './push-report.js';
import type { RunResult } from './push-result.js';

const FULL_N = 10_000;

function flag(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) return fallback;
  const value = Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`--${name} takes a positive whole number`);
  return value;
}

const n = flag('n', FULL_N);
const checkEveryMs = flag('check-ms', 300_000);
const rate = flag('rate', 200);
const startRate = flag('start-rate', 500);
const maxConcurrent = flag('max-concurrent', 1_024);
const write = process.argv.includes('--write') || (n === FULL_N && !process.argv.includes('--from'));
const fdLimit = execSync('ulimit -n', { shell: '/bin/sh', encoding: 'utf8' }).trim();

/** One cell in a fresh process (`--expose-gc`, a heap large enough for 10,000 streams). */
async function cell(mode: 'push' | 'stream', checkMs: number, perSecond: number): Promise<RunResult> {
  const script = fileURLToPath(new URL('./push-run.js', import.meta.url));
  const cellArgs = [mode, n, checkMs, perSecond, startRate, maxConcurrent].map(String);
  const child = spawn(process.execPath, ['--expose-gc', '--max-old-space-size=4096', script, ...cellArgs], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = out.split('\n').find((text) => text.startsWith('RESULT '));
  if (line === undefined) throw new Error(`the ${mode} cell (exit ${code}) printed no result:\n${out.slice(-2000)}`);
  const result = JSON.parse(line.slice('RESULT '.length)) as RunResult;
  console.error(`${cellArgs.join(' ')}: ${result.ended}/${n} ended, ${result.errors} errors`);
  return result;
}

/** The four cells run now, their figures kept beside this file; or a kept run's (`--from FILE`: rendered again, nothing run). */
async function run(): Promise<{ note: string; results: RunResult[] }> {
  const from = process.argv.indexOf('--from');
  if (from !== -1) return JSON.parse(readFileSync(process.argv[from + 1]!, 'utf8')) as { note: string; results: RunResult[] };
  const note = machineNote(fdLimit);
  const results = [
    await cell('stream', checkEveryMs, rate),
    await cell('push', checkEveryMs, rate),
    await cell('push', 30_000, rate),
    await cell('push', checkEveryMs, 0),
  ];
  writeFileSync(fileURLToPath(new URL('./push-results.json', import.meta.url)), JSON.stringify({ note, results }));
  return { note, results };
}

const { note, results } = await run();
const section = renderPushSection(results, note);
console.log(section);
if (write) {
  const page = fileURLToPath(new URL('../../docs/performance.md', import.meta.url));
  console.error(writePushSection(page, section) ? `written into ${page}` : `${page} has no push markers: nothing written`);
}
