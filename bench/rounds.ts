/**
 * Runs benchmark jobs in fresh child processes, contenders alternating: in round r the order of
 * the contenders is rotated by r, and the first `warmupRounds` rounds are run but not kept.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { onContenderCore } from './affinity.js';
import type { Job } from './child.js';
import type { ReplayServer } from './replay-server.js';

const CHILD = fileURLToPath(new URL('./child.js', import.meta.url));
const CHILD_TIMEOUT_MS = 180_000;

/** What one child printed, with the TCP connections it opened to the replay agent. */
export type ChildResult = Record<string, unknown> & { connections: number };

/**
 * A throughput child's young generation at its full size from the start (V8's 16 MB semi-spaces on
 * 64 bits, what it grows to under any load), the same for every contender. Left to grow, it grew once,
 * adding pages faulted in one by one (5,000 to 9,000 page faults), and whether that fell in the
 * measured window or before it depended on how much the process had allocated at start-up (its
 * imports; a padding array moved it): a window that held it cost 1.5 to 2 times the CPU per event.
 * That was the bimodal throughput of earlier runs, for a4h-a2a and the SDK alike.
 */
export const STEADY_YOUNG_GENERATION = ['--min-semi-space-size=16', '--max-semi-space-size=16'] as const;

/**
 * Runs one job in a fresh `node --expose-gc` process with `nodeArgs` (and, for a throughput job,
 * {@link STEADY_YOUNG_GENERATION}) and returns its JSON line; killed after `timeoutMs`.
 */
export function runChild(
  job: Job,
  server: Pick<ReplayServer, 'connections'>,
  nodeArgs: readonly string[] = [],
  timeoutMs: number = CHILD_TIMEOUT_MS,
): Promise<ChildResult> {
  const before = server.connections;
  return new Promise((resolve, reject) => {
    const heap = job.scenario === 'throughput' ? STEADY_YOUNG_GENERATION : [];
    const [command, args] = onContenderCore(['--expose-gc', ...heap, ...nodeArgs, CHILD, JSON.stringify(job)]);
    execFile(
      command,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, env: { ...process.env, A4H_IDENTITY_SECRET: '' } },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`${JSON.stringify(job)} failed: ${stderr || error.message}`));
        const line = stdout.trim().split('\n').pop() ?? '';
        try {
          resolve({ ...(JSON.parse(line) as Record<string, unknown>), connections: server.connections - before });
        } catch {
          reject(new Error(`${JSON.stringify(job)} printed no JSON: ${stdout}${stderr}`));
        }
      },
    );
  });
}

export interface RoundsPlan<C extends string> {
  label: string;
  contenders: readonly C[];
  rounds: number;
  warmupRounds: number;
  job: (contender: C, round: number) => Job;
  nodeArgs?: readonly string[];
  /** How long one child may take; default 180 s. */
  timeoutMs?: number;
  /** Told of each result (kept or not) as it arrives. */
  onResult?: (contender: C, round: number, result: ChildResult) => void;
  /** A short line for the progress log. */
  describe?: (result: ChildResult) => string;
}

/** Kept results per contender, in round order (so index i of two contenders is one round: a pair). */
export async function runRounds<C extends string>(
  plan: RoundsPlan<C>,
  server: Pick<ReplayServer, 'connections'>,
): Promise<Record<C, ChildResult[]>> {
  const kept = Object.fromEntries(plan.contenders.map((c) => [c, [] as ChildResult[]])) as Record<C, ChildResult[]>;
  const total = plan.warmupRounds + plan.rounds;
  for (let round = 0; round < total; round++) {
    const order = plan.contenders.map((_, i) => plan.contenders[(i + round) % plan.contenders.length]!);
    for (const contender of order) {
      const result = await runChild(plan.job(contender, round), server, plan.nodeArgs, plan.timeoutMs);
      plan.onResult?.(contender, round, result);
      const warmup = round < plan.warmupRounds;
      if (!warmup) kept[contender].push(result);
      const note = plan.describe ? ` ${plan.describe(result)}` : '';
      process.stderr.write(`[${plan.label}] round ${round + 1}/${total}${warmup ? ' (warm-up)' : ''} ${contender}${note}\n`);
    }
  }
  return kept;
}
