/**
 * The profile section of `npm run bench`: one throughput process per contender and round
 * (alternating) under `node --cpu-prof`, each profile cut to its measured streams and summarised,
 * then merged per contender; the profiles are kept in `dist/bench/profiles/`.
 */
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { num } from './aggregate.js';
import { CONTENDERS, type Contender } from './drivers/types.js';
import { mergeProfiles, summarizeProfile, type ProfileSummary } from './profile.js';
import type { ReplayServer } from './replay-server.js';
import type { Results } from './results.js';
import { runRounds } from './rounds.js';

/** The throughput job profiled, and how many rounds. */
export interface ProfilePlan {
  n: number;
  warm: number;
  measured: number;
  rounds: number;
}

/** Profiles every contender; `root` is the project's directory. */
export async function runProfiles(plan: ProfilePlan, agent: string, server: ReplayServer, root: string): Promise<Results['profile']> {
  const dir = mkdtempSync(join(tmpdir(), 'a4h-bench-prof-'));
  const kept = join(root, 'dist/bench/profiles');
  const profiles: Partial<Record<Contender, ProfileSummary[]>> = {};
  try {
    await runRounds(
      {
        label: 'profile',
        contenders: CONTENDERS,
        rounds: plan.rounds,
        warmupRounds: 0,
        job: (contender) => ({ scenario: 'throughput', contender, agent, n: plan.n, warm: plan.warm, measured: plan.measured }),
        nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'],
        onResult: (contender, round, result) => {
          const file = join(
            dir,
            readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!,
          );
          const window = result['window'] as { startMicros: number; endMicros: number };
          (profiles[contender] ??= []).push(summarizeProfile(file, window, plan.measured * (plan.n + 3)));
          mkdirSync(kept, { recursive: true });
          renameSync(file, join(kept, `${contender}-${round + 1}.cpuprofile`));
        },
        describe: (r) => `${num(r, 'cpuMsPer1kEvents').toFixed(2)} ms CPU/1k`,
      },
      server,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return Object.fromEntries(Object.entries(profiles).map(([c, ps]) => [c, mergeProfiles(ps)])) as Results['profile'];
}
