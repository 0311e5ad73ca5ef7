/**
 * The fault matrix's gRPC cells, per protocol version (v1.0, and a genuine v0.3 agent). The HTTP
 * fault proxy cannot carry HTTP/2, so the gRPC fixture server applies the faults itself
 * (`fixtures/faults/grpc.ts`): a stream ended cleanly, its connection dropped or the stream reset,
 * a call ended with a status, a stream stalled, a call never answered. Each cell checks the reply
 * (whole, once) or the error, what reached the agent, the CancelTask count, and that nothing leaks.
 */
import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { startGrpcAgent, type GrpcFixtureAgent } from '../../fixtures/agent-grpc.js';
import type { GrpcBreak, GrpcCallKind, GrpcFaultRule } from '../../fixtures/faults/grpc.js';
import { REPLY } from '../../fixtures/index.js';
import { grpcSupport } from '../../src/node/grpc.js';
import { createSdkPorts, type SdkPorts } from '../../src/sdk/ports.js';
import { runTurn, type LadderOptions } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { eventsOf, expectError, expectReply, POLICY, run, sleep, SLOW_REPLY, TIMING, useFreshRig, type TurnResult } from './kit.js';

/** The calls of each kind, as the agent receives them (v0.3 resubscribes with `TaskSubscription`). */
const METHODS: Record<Exclude<GrpcCallKind, 'other'>, readonly string[]> = {
  send: ['SendMessage'],
  stream: ['SendStreamingMessage'],
  resubscribe: ['SubscribeToTask', 'TaskSubscription'],
  get: ['GetTask'],
  cancel: ['CancelTask'],
};

const BREAK_KIND: Record<GrpcBreak, 'stream-closed' | 'network'> = { end: 'stream-closed', drop: 'network', reset: 'network' };

interface GrpcRig {
  agent: GrpcFixtureAgent;
  ports: SdkPorts;
  plan(rule: GrpcFaultRule): void;
  turn(text: string, options?: LadderOptions): Promise<TurnResult>;
  /** Calls of one kind that reached the agent. */
  reached(kind: keyof typeof METHODS): number;
}

/** A fresh gRPC agent and ports per test, closed after it, then checked for leaked sockets, timers and unhandled rejections. */
function useGrpcRig(version: '1.0' | '0.3'): () => GrpcRig {
  return useFreshRig<GrpcRig>(
    async () => {
      const agent = await startGrpcAgent({ version, timing: TIMING });
      const ports = createSdkPorts({ grpc: grpcSupport() });
      const reached = (kind: keyof typeof METHODS) => agent.received.filter((r) => METHODS[kind].includes(r.method)).length;
      return {
        agent,
        ports,
        plan: (rule) => agent.faults('/').plan(rule),
        turn: (text, options = POLICY) => run(runTurn(ports(agent.url('/')), { text }, options)),
        reached,
      };
    },
    async (r) => {
      await r.ports.close();
      await r.agent.close();
    },
  );
}

/** CancelTask reached the agent exactly `n` times, and no further one arrives soon after. */
async function expectCancels(r: GrpcRig, n: 0 | 1): Promise<void> {
  if (n === 1) await eventually(() => r.reached('cancel') >= 1);
  await sleep(40);
  expect(r.reached('cancel'), 'CancelTasks that reached the agent').toBe(n);
}

const PATIENT = { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 2_000 } };

for (const version of ['1.0', '0.3'] as const) {
  describe(`v${version} gRPC: faults`, () => {
    const rig = useGrpcRig(version);

    for (const mode of ['end', 'drop', 'reset'] as const) {
      it(`stream cut (${mode}) before any event → ${BREAK_KIND[mode]} error, nothing re-sent, no cancel`, async () => {
        const r = rig();
        r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 0, mode } });
        const result = await r.turn('slow');
        expectError(result, BREAK_KIND[mode], { operation: 'stream' });
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
        await expectCancels(r, 0);
      });

      it(`stream cut (${mode}) after 4 events → resubscribe, the whole reply once`, async () => {
        const r = rig();
        r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode } });
        const result = await r.turn('slow');
        expectReply(result, SLOW_REPLY);
        expect(eventsOf(result, 'reconnecting')).toMatchObject([{ attempt: 1, cause: { kind: BREAK_KIND[mode] } }]);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 1, 0]);
        await expectCancels(r, 0);
      });
    }

    it('stream ended with UNAVAILABLE after 4 events → resubscribe, the whole reply once', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'status', code: status.UNAVAILABLE, afterEvents: 4 } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconnecting')).toMatchObject([{ cause: { kind: 'network', grpcCode: status.UNAVAILABLE } }]);
      await expectCancels(r, 0);
    });

    it('stream answered UNAVAILABLE at once → retryable network error, nothing re-sent (no task yet)', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'status', code: status.UNAVAILABLE } });
      expectError(await r.turn('artifacts'), 'network', { retryable: true, grpcCode: status.UNAVAILABLE, operation: 'stream' });
      expect([r.reached('stream'), r.reached('send')]).toEqual([1, 0]);
      await expectCancels(r, 0);
    });

    it('stream answered UNIMPLEMENTED → fallback to one blocking send, the whole reply', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'status', code: status.UNIMPLEMENTED } });
      const result = await r.turn('artifacts');
      expectReply(result, REPLY.artifacts);
      expect(eventsOf(result, 'fallback')).toMatchObject([{ from: 'stream', to: 'send', cause: { kind: 'unsupported' } }]);
      expect([r.reached('stream'), r.reached('send')]).toEqual([1, 1]);
      await expectCancels(r, 0);
    });

    for (const code of [status.UNAUTHENTICATED, status.PERMISSION_DENIED]) {
      it(`stream answered ${status[code]} → auth error, not retryable, nothing re-sent`, async () => {
        const r = rig();
        r.plan({ on: 'stream', fault: { type: 'status', code, details: 'token s3cret rejected' } });
        const error = expectError(await r.turn('artifacts'), 'auth', { retryable: false, grpcCode: code });
        expect(error.message).not.toContain('s3cret');
        expect([r.reached('stream'), r.reached('send')]).toEqual([1, 0]);
        await expectCancels(r, 0);
      });
    }

    it('resubscribe refused (UNIMPLEMENTED) after a drop → polling, GetTask finishes the reply', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'drop' } });
      r.plan({ on: 'resubscribe', fault: { type: 'status', code: status.UNIMPLEMENTED }, times: Infinity });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'polling')).toMatchObject([{ reason: 'resubscribe-failed' }]);
      expect(r.reached('resubscribe')).toBe(1);
      expect(r.reached('get')).toBeGreaterThanOrEqual(1);
      await expectCancels(r, 0);
    });

    it('resubscribe UNAVAILABLE every time → up to reconnect.maxAttempts, then polling, the whole reply', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'end' } });
      r.plan({ on: 'resubscribe', fault: { type: 'status', code: status.UNAVAILABLE }, times: Infinity });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(r.reached('resubscribe')).toBe(3);
      expect(eventsOf(result, 'polling')).toHaveLength(1);
      await expectCancels(r, 0);
    });

    it('a GetTask ended with DEADLINE_EXCEEDED is tried again (a retryable timeout): the whole reply', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'drop' } });
      r.plan({ on: 'resubscribe', fault: { type: 'status', code: status.UNIMPLEMENTED }, times: Infinity });
      r.plan({ on: 'get', fault: { type: 'status', code: status.DEADLINE_EXCEEDED } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(r.reached('get')).toBeGreaterThanOrEqual(2);
      await expectCancels(r, 0);
    });

    it('a GetTask never answered → poll-request timeout, tried again: the whole reply', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'drop' } });
      r.plan({ on: 'resubscribe', fault: { type: 'status', code: status.UNIMPLEMENTED }, times: Infinity });
      r.plan({ on: 'get', fault: { type: 'hang' } });
      const options = { ...POLICY, policy: { ...POLICY.policy, poll: { ...POLICY.policy!.poll, requestTimeoutMs: 200 } } };
      const result = await r.turn('slow', options);
      expectReply(result, SLOW_REPLY);
      await eventually(() => r.agent.received.find((c) => c.method === 'GetTask')?.cancelled === true);
      await expectCancels(r, 0);
    });

    it('CancelTask refused (UNAVAILABLE) at the turn deadline: sent once, the error is the timeout only', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
      r.plan({ on: 'cancel', fault: { type: 'status', code: status.UNAVAILABLE } });
      const options = { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 5_000, turnTimeoutMs: 500 } };
      expectError(await r.turn('slow', options), 'timeout', { phase: 'turn' });
      await expectCancels(r, 1);
    });

    it('resubscribe and GetTask answer NOT_FOUND (the agent lost the task) → task-not-found error, no CancelTask', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'drop' } });
      r.plan({ on: ['resubscribe', 'get'], fault: { type: 'status', code: status.NOT_FOUND }, times: Infinity });
      expectError(await r.turn('slow'), 'task-not-found');
      await expectCancels(r, 0);
    });

    it('a stall shorter than the idle bound → completes on the same stream', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 150 } });
      const result = await r.turn('slow', PATIENT);
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconnecting')).toEqual([]);
      await expectCancels(r, 0);
    });

    it('a stall longer than the idle bound → idle timeout, resubscribe, the whole reply once', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconnecting')).toMatchObject([{ cause: { kind: 'timeout', phase: 'idle' } }]);
      await expectCancels(r, 0);
    });

    it('no first event (the call never answered) → first-event timeout; nothing to cancel', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'hang' } });
      expectError(await r.turn('slow'), 'timeout', { phase: 'first-event' });
      await eventually(() => r.agent.received.find((c) => c.method === 'SendStreamingMessage')?.cancelled === true);
      await expectCancels(r, 0);
    });

    it('huge initial metadata on the stream (1,000 entries, 1 MB) → a clear error at once (RESOURCE_EXHAUSTED), nothing re-sent', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'metadata', where: 'initial', entries: 1_000, bytes: 1_000 } });
      const result = await r.turn('artifacts');
      const error = expectError(result, 'protocol', { grpcCode: status.RESOURCE_EXHAUSTED, operation: 'stream' });
      expect(error.message).toContain('RESOURCE_EXHAUSTED');
      expect(result.ms).toBeLessThan(POLICY.policy!.firstEventTimeoutMs!);
      expect([r.reached('stream'), r.reached('send'), r.reached('resubscribe')]).toEqual([1, 0, 0]);
      await expectCancels(r, 0);
    });

    it('huge trailing metadata after the last event → the whole reply, read at the terminal event', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'metadata', where: 'trailing', entries: 1_000, bytes: 1_000 } });
      expectReply(await r.turn('artifacts'), REPLY.artifacts);
      expect([r.reached('stream'), r.reached('resubscribe')]).toEqual([1, 0]);
      await expectCancels(r, 0);
    });

    it('a stream that never ends after its terminal event (no status, no trailers) → the reply at once, the call cancelled, close() prompt', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'hold' } });
      // An idle bound far past the test's own: only the terminal event can end this turn in time.
      const options = { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 60_000, turnTimeoutMs: 60_000 } };
      const result = await r.turn('artifacts', options);
      expectReply(result, REPLY.artifacts);
      expect(result.ms).toBeLessThan(5_000);
      await eventually(() => r.agent.received.find((c) => c.method === 'SendStreamingMessage')?.cancelled === true);
      const closing = Date.now();
      await r.ports.close();
      expect(Date.now() - closing).toBeLessThan(5_000);
      expect([r.reached('stream'), r.reached('resubscribe'), r.reached('get')]).toEqual([1, 0, 0]);
      await expectCancels(r, 0);
    });

    it('a stall until the turn deadline → timeout (turn), the call cancelled, CancelTask once', async () => {
      const r = rig();
      r.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 60_000 } });
      const options = { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 5_000, turnTimeoutMs: 600 } };
      expectError(await r.turn('slow', options), 'timeout', { phase: 'turn' });
      await expectCancels(r, 1);
      await eventually(() => r.agent.received.find((c) => c.method === 'SendStreamingMessage')?.cancelled === true);
    });
  });
}
