/**
 * The chaos runs' killer: `kill -9` of a random replica every `everyMs` until `until` (epoch ms),
 * each one started again at once (haproxy routes to it once its check passes). Never the last replica
 * up: one killed a moment ago may still be starting.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster } from '../../examples/gateway/cluster.mjs';

/** Kills until `until`, waits for every restart; resolves to how many replicas it killed. */
export async function killRandomly(cluster: Cluster, everyMs: number, until: number): Promise<number> {
  const down = new Set<string>();
  const restarts: Promise<void>[] = [];
  let kills = 0;
  while (Date.now() < until) {
    await sleep(everyMs);
    const up = cluster.names.filter((name) => !down.has(name));
    if (up.length < 2) continue;
    const name = up[Math.floor(Math.random() * up.length)]!;
    down.add(name);
    await cluster.kill(name);
    kills += 1;
    restarts.push(cluster.restart(name).then(() => void down.delete(name)));
  }
  await Promise.all(restarts);
  return kills;
}
