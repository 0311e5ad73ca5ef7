/**
 * A quick A/B of event throughput (a4h-a2a against the raw SDK, alternating, fresh processes) for
 * working on the hot path: `npm run bench:quick -- [rounds]`, over JSON-RPC (the replay agent) and
 * then over gRPC (the gRPC bench agent, the SDK's own gRPC client as the other contender); `-- [rounds]
 * grpc` runs the gRPC half alone, `-- [rounds] json-rpc` the other. The full run is `npm run bench`.
 */
import { pinAgents } from './affinity.js';
import { GRPC_CONTENDERS } from './drivers/types.js';
import { startGrpcBenchAgent } from './grpc-agent.js';
import { startReplayServer } from './replay-server.js';
import { runChild } from './rounds.js';

// The agents on core 0, each measured process on core 1 (see affinity.ts).
pinAgents();

const rounds = Number(process.argv[2] ?? 5);
const only = process.argv[3];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
if (only !== undefined && only !== 'grpc' && only !== 'json-rpc') throw new Error(`bench:quick -- [rounds] [grpc|json-rpc], not ${only}`);
if (only !== 'grpc') await jsonRpc();
if (only !== 'json-rpc') await grpcRounds();

async function jsonRpc(): Promise<void> {
  const server = await startReplayServer();
  const rows: Record<string, { eps: number[]; cpu: number[] }> = { a4h: { eps: [], cpu: [] }, sdk: { eps: [], cpu: [] } };
  try {
    for (let round = 0; round < rounds; round++) {
      for (const contender of round % 2 === 0 ? (['a4h', 'sdk'] as const) : (['sdk', 'a4h'] as const)) {
        const result = (await runChild(
          { scenario: 'throughput', contender, agent: `${server.url}/`, n: 20_000, warm: 2, measured: 3 },
          server,
        )) as unknown as {
          eventsPerSec: number;
          cpuMsPer1kEvents: number;
        };
        rows[contender]!.eps.push(result.eventsPerSec);
        rows[contender]!.cpu.push(result.cpuMsPer1kEvents);
      }
    }
  } finally {
    await server.close();
  }
  const a = rows['a4h']!;
  const s = rows['sdk']!;
  process.stdout.write(
    `a4h ${Math.round(median(a.eps))} ev/s ${median(a.cpu).toFixed(2)} ms/1k; sdk ${Math.round(median(s.eps))} ev/s ${median(s.cpu).toFixed(2)} ms/1k; ` +
      `ratio ${(median(a.eps) / median(s.eps)).toFixed(2)}x events, ${(median(a.cpu) / median(s.cpu)).toFixed(2)}x CPU\n`,
  );
}

/** The same over gRPC: a4h-a2a against the SDK's own gRPC client, on the gRPC bench agent. */
async function grpcRounds(): Promise<void> {
  const grpcAgent = await startGrpcBenchAgent();
  const grpcRows: Record<string, { eps: number[]; cpu: number[] }> = Object.fromEntries(
    GRPC_CONTENDERS.map((contender) => [contender, { eps: [], cpu: [] }]),
  );
  try {
    // Round -1 warms the agent (its process runs every round) and is not kept; the order rotates each round.
    for (let round = -1; round < rounds; round++) {
      for (const contender of GRPC_CONTENDERS.map((_, i) => GRPC_CONTENDERS[(i + round + 1) % GRPC_CONTENDERS.length]!)) {
        const result = (await runChild(
          { scenario: 'throughput', contender, agent: grpcAgent.url, n: 20_000, warm: 2, measured: 3 },
          grpcAgent,
        )) as unknown as { eventsPerSec: number; cpuMsPer1kEvents: number };
        if (round < 0) continue;
        grpcRows[contender]!.eps.push(result.eventsPerSec);
        grpcRows[contender]!.cpu.push(result.cpuMsPer1kEvents);
      }
    }
  } finally {
    await grpcAgent.close();
  }
  const sdk = grpcRows['sdk-grpc']!;
  for (const contender of GRPC_CONTENDERS) {
    const row = grpcRows[contender]!;
    // The ratio of medians, and the median of each round's ratio (the pair ran side by side).
    const paired = (key: 'eps' | 'cpu') => median(row[key].map((value, round) => value / sdk[key][round]!)).toFixed(2);
    process.stdout.write(
      `gRPC ${contender}: ${Math.round(median(row.eps))} ev/s ${median(row.cpu).toFixed(2)} ms/1k; ` +
        `${(median(row.eps) / median(sdk.eps)).toFixed(2)}x (paired ${paired('eps')}x) events, ` +
        `${(median(row.cpu) / median(sdk.cpu)).toFixed(2)}x (paired ${paired('cpu')}x) CPU\n`,
    );
  }
}
