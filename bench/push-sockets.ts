/** What `bench/push-run.ts` reads: the connections open on loopback, its own heap after a full GC, percentiles. */
import { readFileSync } from 'node:fs';

/**
 * Established TCP connections on loopback, from the kernel (`/proc/net/tcp`): those whose far end is
 * `agentPort` (the client's to the agent: only the client connects to it) and those whose far end is
 * `receiverPort` (the agent's push sender to the receiver). Counted by the kernel, not by the process's
 * handles: undici unrefs an idle pooled socket, and `process._getActiveHandles()` lists ref'd ones only.
 */
export function socketCensus(agentPort: number, receiverPort: number): { toAgent: number; fromAgent: number } {
  let toAgent = 0;
  let fromAgent = 0;
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(file, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== '01') continue; // ESTABLISHED
      const remotePort = Number.parseInt(fields[2]?.split(':')[1] ?? '', 16);
      if (remotePort === agentPort) toAgent++;
      else if (remotePort === receiverPort) fromAgent++;
    }
  }
  return { toAgent, fromAgent };
}

/** `process.memoryUsage()` in MB after full collections (the process runs with `--expose-gc`). */
export async function liveMemory(): Promise<{ heapUsedMb: number; externalMb: number; rssMb: number }> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  const mb = (bytes: number): number => Math.round((bytes / 2 ** 20) * 10) / 10;
  return { heapUsedMb: mb(usage.heapUsed), externalMb: mb(usage.external), rssMb: mb(usage.rss) };
}

/** The p-th percentile (0–100) of `values`, nearest rank; NaN when empty. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}
