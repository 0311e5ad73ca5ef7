/**
 * The time to first event alone, for work on a thread's first message: `npm run bench:first -- [rounds]`.
 * a4h-a2a and the raw SDK alternate in fresh processes on the replay agent (as in the full run's
 * section 2); it prints each one's median of the per-round medians: warm (a known thread's message),
 * a thread's first message (a4h-a2a asks `ListTasks` for a task left waiting first), and cold (the
 * process's first turn, a thread's first message: card, new connection and, for a4h-a2a, the lookup);
 * and a4h-a2a's cold first event on a known thread (no lookup), from a third process per round.
 */
import { pinAgents } from './affinity.js';
import { startReplayServer } from './replay-server.js';
import { runChild } from './rounds.js';

// The agents on core 0, each measured process on core 1 (see affinity.ts).
pinAgents();

const rounds = Number(process.argv[2] ?? 5);
const server = await startReplayServer();
const keys = ['warmMs', 'firstOfThreadMs', 'coldMs'] as const;
const rows: Record<string, Record<(typeof keys)[number], number[]>> = {
  a4h: { warmMs: [], firstOfThreadMs: [], coldMs: [] },
  sdk: { warmMs: [], firstOfThreadMs: [], coldMs: [] },
};
const knownColdMs: number[] = [];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
try {
  for (let round = 0; round < rounds; round++) {
    for (const contender of round % 2 === 0 ? (['a4h', 'sdk'] as const) : (['sdk', 'a4h'] as const)) {
      const result = await runChild({ scenario: 'first-event', contender, agent: `${server.url}/`, warm: 5, samples: 40 }, server);
      for (const key of keys) rows[contender]![key].push(Number(result[key]));
    }
    const known = await runChild({ scenario: 'cold-known-thread', contender: 'a4h', agent: `${server.url}/` }, server);
    knownColdMs.push(Number(known['coldMs']));
  }
} finally {
  await server.close();
}
for (const [contender, row] of Object.entries(rows)) {
  const [warm, first, cold] = keys.map((key) => median(row[key]));
  process.stdout.write(
    `${contender}: warm ${warm!.toFixed(2)} ms, a thread's first message ${first!.toFixed(2)} ms (+${(first! - warm!).toFixed(2)}), cold ${cold!.toFixed(1)} ms\n`,
  );
}
process.stdout.write(`a4h, a known thread (no lookup): cold ${median(knownColdMs).toFixed(1)} ms\n`);
