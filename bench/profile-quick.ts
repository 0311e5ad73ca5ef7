/**
 * Profiles one contender's throughput run and prints where its CPU goes (self time by function and
 * by category, per 1,000 events): `node dist/bench/profile-quick.js [a4h|a4h-sdk-reader|sdk|floor|a4h-grpc|sdk-grpc]`
 * (the gRPC contenders against the gRPC bench agent, the others against the replay agent).
 */
import { pinAgents } from './affinity.js';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Contender } from './drivers/types.js';
import { startGrpcBenchAgent } from './grpc-agent.js';
import { summarizeProfile } from './profile.js';
import { startReplayServer } from './replay-server.js';
import { runChild } from './rounds.js';

// The agents on core 0, each measured process on core 1 (see affinity.ts).
pinAgents();

const contender = (process.argv[2] ?? 'a4h') as Contender;
const server = contender.endsWith('-grpc') ? await startGrpcBenchAgent() : await startReplayServer();
const dir = mkdtempSync(join(tmpdir(), 'a4h-prof-'));
try {
  const n = 20_000;
  const measured = 3;
  const result = await runChild(
    { scenario: 'throughput', contender, agent: contender.endsWith('-grpc') ? server.url : `${server.url}/`, n, warm: 2, measured },
    server,
    ['--cpu-prof', '--cpu-prof-dir', dir, '--cpu-prof-interval', '100'],
  );
  const file = join(
    dir,
    readdirSync(dir).find((f) => f.endsWith('.cpuprofile'))!,
  );
  const summary = summarizeProfile(file, result['window'] as { startMicros: number; endMicros: number }, measured * (n + 3), 25);
  for (const c of summary.categories) process.stdout.write(`${c.category.padEnd(14)} ${c.msPer1kEvents.toFixed(2)} ms/1k\n`);
  process.stdout.write('\n');
  for (const line of summary.top)
    process.stdout.write(`${line.msPer1kEvents.toFixed(2).padStart(6)} ${line.category.padEnd(10)} ${line.function} ${line.where}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
}
