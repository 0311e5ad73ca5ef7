/**
 * A quick A/B of event throughput (a4h-a2a against the raw SDK, alternating, fresh processes) for
 * working on the hot path: `npm run bench:quick -- [rounds]`, over JSON-RPC (the replay agent) and
 * then over gRPC (the gRPC bench agent, the SDK's own gRPC client as the other contender). The full
 * run is `npm run bench`.
 */
import { startGrpcBenchAgent } from './grpc-agent.js';
import { startReplayServer } from './replay-server.js';
import { runChild } from './rounds.js';

const rounds = Number(process.argv[2] ?? 5);
const server = await startReplayServer();
const rows: Record<string, { eps: number[]; cpu: number[] }> = { a4h: { eps: [], cpu: [] }, sdk: { eps: [], cpu: [] } };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
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

// The same over gRPC: a4h-a2a against the SDK's own gRPC client, on the gRPC bench agent.
const grpcAgent = await startGrpcBenchAgent();
const grpcRows: Record<string, { eps: number[]; cpu: number[] }> = { 'a4h-grpc': { eps: [], cpu: [] }, 'sdk-grpc': { eps: [], cpu: [] } };
try {
  for (let round = 0; round < rounds; round++) {
    for (const contender of round % 2 === 0 ? (['a4h-grpc', 'sdk-grpc'] as const) : (['sdk-grpc', 'a4h-grpc'] as const)) {
      const result = (await runChild(
        { scenario: 'throughput', contender, agent: grpcAgent.url, n: 20_000, warm: 2, measured: 3 },
        grpcAgent,
      )) as unknown as { eventsPerSec: number; cpuMsPer1kEvents: number };
      grpcRows[contender]!.eps.push(result.eventsPerSec);
      grpcRows[contender]!.cpu.push(result.cpuMsPer1kEvents);
    }
  }
} finally {
  await grpcAgent.close();
}
const ga = grpcRows['a4h-grpc']!;
const gs = grpcRows['sdk-grpc']!;
process.stdout.write(
  `gRPC: a4h ${Math.round(median(ga.eps))} ev/s ${median(ga.cpu).toFixed(2)} ms/1k; sdk ${Math.round(median(gs.eps))} ev/s ${median(gs.cpu).toFixed(2)} ms/1k; ` +
    `ratio ${(median(ga.eps) / median(gs.eps)).toFixed(2)}x events, ${(median(ga.cpu) / median(gs.cpu)).toFixed(2)}x CPU\n`,
);
