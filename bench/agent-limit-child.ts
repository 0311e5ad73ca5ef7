/**
 * One process of `bench/agent-limit.ts`: `node dist/bench/agent-limit-child.js '<job JSON>'` runs one
 * scenario of the full benchmark (throughput, or concurrency) for one contender, or the no-wire pairs
 * (`agent-limit-nowire.ts`), and prints one JSON line.
 */
import { limitDriver, type LimitContender } from './agent-limit-driver.js';
import { noWire } from './agent-limit-nowire.js';
import { concurrency, throughput } from './scenarios.js';

/** What the runner asks. */
export type LimitJob =
  | { scenario: 'throughput'; contender: LimitContender; agent: string; n: number; warm: number; measured: number }
  | { scenario: 'concurrency'; contender: LimitContender; agent: string; turns: number; n: number }
  | { scenario: 'no-wire'; n: number; turns: number };

async function run(job: LimitJob): Promise<object> {
  if (job.scenario === 'no-wire') return noWire(job.n, job.turns);
  const driver = limitDriver(job.contender);
  try {
    return job.scenario === 'throughput'
      ? await throughput(driver, job.contender, job.agent, job.n, job.warm, job.measured)
      : await concurrency(driver, job.contender, job.agent, job.turns, job.n);
  } finally {
    await driver.close();
  }
}

run(JSON.parse(process.argv[2] ?? '{}') as LimitJob).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0)),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
