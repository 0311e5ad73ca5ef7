/**
 * The contenders of `bench/agent-limit.ts`: a4h-a2a as the full benchmark runs it, the same client
 * with `agentLimits` set far above what the run reaches, and the raw SDK, on the same pool settings.
 */
import { createSdkPorts } from 'a4h-a2a';
import { createA2A, createNodeFetch } from 'a4h-a2a/node';
import { a4hDriver, countTurn } from './drivers/a4h.js';
import { sdkDriver } from './drivers/sdk.js';
import { BENCH_SECRET, CONNECTIONS, FIRST_OF_THREAD, type Driver } from './drivers/types.js';

/** a4h-a2a without the option, with it (never reached), and the raw SDK. */
export const LIMIT_CONTENDERS = ['a4h', 'a4h-limited', 'sdk'] as const;
export type LimitContender = (typeof LIMIT_CONTENDERS)[number];

/**
 * Bounds no scenario reaches: 1,000 turns at once, far under 100,000 in flight; every start counted
 * against a rate of 10,000 a second (1,000 a batch), so the whole gate runs (the ring of starts too).
 */
export const UNREACHED = { maxInFlight: 100_000, maxStartsPerSecond: 10_000, maxQueued: 1_000 } as const;

/** The driver of `contender`. */
export function limitDriver(contender: LimitContender): Driver {
  if (contender === 'a4h') return a4hDriver('a4h', CONNECTIONS);
  if (contender === 'sdk') return sdkDriver(CONNECTIONS);
  // As a4hDriver makes its clients, with the option.
  const http = createNodeFetch({ connections: CONNECTIONS });
  const ports = createSdkPorts({ fetch: http.fetch });
  const known = createA2A({ identitySecret: BENCH_SECRET, ports, policy: { continueInterrupted: false }, agentLimits: UNREACHED });
  const first = createA2A({ identitySecret: BENCH_SECRET, ports, agentLimits: UNREACHED });
  return {
    turn: (agent, text, thread, onFirstChunk, onChunk) =>
      countTurn((thread.startsWith(FIRST_OF_THREAD) ? first : known).turn({ agent, handle: 'bench', thread, text }), onFirstChunk, onChunk),
    close: async () => {
      await Promise.all([known.close(), first.close()]);
      await http.close();
    },
  };
}
