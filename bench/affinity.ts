/**
 * Where the benchmark's processes run. On a machine of two cores or more, with `taskset` (util-linux),
 * the runner's process, which serves the agents, is pinned to core 0 and each measured process to core
 * 1, every contender alike. Unpinned, the scheduler sometimes put the client and the agent on one core
 * and sometimes not, from one process to the next: the same client's throughput rounds were bimodal
 * (170k or 290k events per second), and their ratios swung with which mode each contender drew.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The cores of the agents and of the measured processes, when pinned. */
export interface Pinning {
  agentCore: number;
  contenderCore: number;
}

let pinning: Pinning | undefined;

/** Pins this process (every thread) to core 0 for the agents it serves; undefined (and nothing pinned) on one core or without `taskset`. */
export function pinAgents(): Pinning | undefined {
  if (availableParallelism() < 2) return undefined;
  try {
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  } catch {
    return undefined;
  }
  pinning = { agentCore: 0, contenderCore: 1 };
  return pinning;
}

/** The command that runs Node with `args` on the measured processes' core (plain Node when nothing is pinned). */
export function onContenderCore(args: readonly string[]): [string, string[]] {
  return pinning === undefined
    ? [process.execPath, [...args]]
    : ['taskset', ['-c', String(pinning.contenderCore), process.execPath, ...args]];
}

/** The pinning in words, for the report. */
export function pinningInWords(p: Pinning | undefined): string {
  return p === undefined
    ? 'processes not pinned to cores'
    : `the agents on core ${p.agentCore}, each measured process on core ${p.contenderCore}`;
}
