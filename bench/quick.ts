/**
 * A quick A/B of event throughput (a4h-a2a against the raw SDK, alternating, fresh processes) for
 * working on the hot path: `npm run bench:quick -- [rounds]`. The full run is `npm run bench`.
 */
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
