/**
 * One benchmark process: `node dist/bench/child.js '<job JSON>'` runs one job for one contender
 * and prints its result as one JSON line. The runner starts a fresh one per contender and round.
 */
import { assembly, turnSetup, type AssemblyVariant, type SetupKind } from './assembly.js';
import { coalesce, type CoalescePlan, type CoalesceVariant } from './coalesce.js';
import { loadDriver } from './drivers/index.js';
import type { Contender } from './drivers/types.js';
import { gateway, type GatewayShape } from './gateway.js';
import { identity, type IdentityKind } from './identity.js';
import { coldCard, coldKnownThread, concurrency, firstEvent, throughput } from './scenarios.js';

/** What the runner asks a child to do. */
export type Job =
  | { scenario: 'throughput'; contender: Contender; agent: string; n: number; warm: number; measured: number }
  | { scenario: 'first-event'; contender: Contender; agent: string; warm: number; samples: number }
  | { scenario: 'cold-known-thread'; contender: Contender; agent: string }
  | { scenario: 'concurrency'; contender: Contender; agent: string; turns: number; n: number }
  | { scenario: 'cold-card'; contender: Contender; agent: string; turns: number }
  | ({ scenario: 'gateway'; contender: Contender; agent: string } & GatewayShape)
  | { scenario: 'assembly'; n: number; variant: AssemblyVariant; minChunks: number }
  | { scenario: 'turn-setup'; kind: SetupKind; count: number }
  | ({ scenario: 'coalesce'; variant: CoalesceVariant } & CoalescePlan)
  | { scenario: 'identity'; kind: IdentityKind; count: number };

async function run(job: Job): Promise<object> {
  switch (job.scenario) {
    case 'assembly':
      return assembly(job.n, job.variant, job.minChunks);
    case 'turn-setup':
      return turnSetup(job.kind, job.count);
    case 'coalesce':
      return coalesce(job.variant, job);
    case 'identity':
      return identity(job.kind, job.count);
    default: {
      // The gateway holds a connection per open turn; the others fit in the default pool.
      const driver = await loadDriver(job.contender, job.scenario === 'gateway' ? job.turns : undefined);
      try {
        switch (job.scenario) {
          case 'throughput':
            return await throughput(driver, job.contender, job.agent, job.n, job.warm, job.measured);
          case 'first-event':
            return await firstEvent(driver, job.contender, job.agent, job.warm, job.samples);
          case 'cold-known-thread':
            return await coldKnownThread(driver, job.contender, job.agent);
          case 'concurrency':
            return await concurrency(driver, job.contender, job.agent, job.turns, job.n);
          case 'cold-card':
            return await coldCard(driver, job.contender, job.agent, job.turns);
          case 'gateway':
            return await gateway(driver, job.contender, job.agent, job);
        }
      } finally {
        await driver.close();
      }
    }
  }
}

const job = JSON.parse(process.argv[2] ?? '{}') as Job;
run(job).then(
  (result) => process.stdout.write(`${JSON.stringify(result)}\n`, () => process.exit(0)),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  },
);
