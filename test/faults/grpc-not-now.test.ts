/**
 * gRPC's "not now": RESOURCE_EXHAUSTED or UNAVAILABLE whose trailing metadata says when to come back
 * (`retry-after`, seconds), before any event, on real gRPC fixture agents of both versions.
 */
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../fixtures/agent-grpc.js';
import type { GrpcFaultRule } from '../../fixtures/faults/grpc.js';
import { REPLY } from '../../fixtures/index.js';
import { grpcSupport } from '../../src/node/grpc.js';
import { createSdkPorts, type SdkPorts } from '../../src/sdk/ports.js';
import { runTurn, type LadderOptions } from '../../src/turn/turn.js';
import { expectError, expectReply, POLICY, run, TIMING, useFreshRig, type TurnResult } from './kit.js';

interface Rig {
  agent: GrpcFixtureAgent;
  ports: SdkPorts;
  plan(rule: GrpcFaultRule): void;
  turn(text: string, options?: LadderOptions): Promise<TurnResult>;
  /** Streaming sends that reached the agent's server (a status fault answers before the agent's handler runs). */
  streams(): number;
}

/** Room for a second's wait before a stream's first event (and for a busy machine's card). */
const WAITING: LadderOptions = {
  ...POLICY,
  policy: { ...POLICY.policy, cardTimeoutMs: 5_000, firstEventTimeoutMs: 5_000, retryAfter: { maxTries: 2 } },
};

for (const version of ['1.0', '0.3'] as const) {
  describe(`v${version} gRPC: not now`, () => {
    const rig = useFreshRig<Rig>(
      async () => {
        const agent = await startGrpcAgent({ version, timing: TIMING });
        const ports = createSdkPorts({ grpc: grpcSupport() });
        return {
          agent,
          ports,
          plan: (rule) => agent.faults('/').plan(rule),
          turn: (text, options = WAITING) => run(runTurn(ports(agent.url('/')), { text }, options)),
          streams: () => agent.received.filter((r) => r.method === 'SendStreamingMessage').length,
        };
      },
      async (r) => {
        await r.ports.close();
        await r.agent.close();
      },
    );

    for (const code of [status.RESOURCE_EXHAUSTED, status.UNAVAILABLE]) {
      it(`a stream ended with ${status[code]} and retry-after: 1 before any event is opened again a second later: the whole reply`, async () => {
        const r = rig();
        r.plan({ on: 'stream', fault: { type: 'status', code, metadata: { 'retry-after': '1' } } });
        const result = await r.turn('artifacts');
        expectReply(result, REPLY.artifacts);
        expect(r.streams()).toBe(2);
        expect(result.ms).toBeGreaterThanOrEqual(1_000);
      });
    }

    it('past retryAfter.maxTries the RESOURCE_EXHAUSTED is the error, carrying its retry-after', async () => {
      const r = rig();
      r.plan({
        on: 'stream',
        fault: { type: 'status', code: status.RESOURCE_EXHAUSTED, metadata: { 'retry-after': '0' } },
        times: Infinity,
      });
      expectError(await r.turn('artifacts'), 'protocol', { grpcCode: status.RESOURCE_EXHAUSTED, retryAfterMs: 0, operation: 'stream' });
      expect(r.streams()).toBe(3);
    });
  });
}
