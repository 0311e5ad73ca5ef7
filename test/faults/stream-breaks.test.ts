/**
 * Fault matrix, part 1: the stream breaks, stalls or drips (faults 1–5), per protocol version.
 * A break after the task is known is resumed by resubscribing and the reply comes whole and once;
 * a break before any task id ends the turn with an error and nothing is sent again.
 */
import { describe, expect, it } from 'vitest';
import type { BreakMode } from '../../fixtures/fault-proxy.js';
import { REPLY } from '../../fixtures/index.js';
import { runTurn } from '../../src/turn/turn.js';
import { eventsOf, expectCancels, expectError, expectReply, POLICY, run, SLOW_REPLY, useRig, VERSIONS } from './kit.js';

const BREAK_KIND: Record<BreakMode, 'stream-closed' | 'network'> = { end: 'stream-closed', destroy: 'network', reset: 'network' };

/** An idle bound no drip or short stall comes near, even on a loaded machine. */
const PATIENT = { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 2_000 } };

for (const version of VERSIONS) {
  describe(`${version.name}: stream breaks`, () => {
    const rig = useRig(version);

    for (const mode of ['end', 'destroy', 'reset'] as const) {
      it(`cut (${mode}) before any event → ${BREAK_KIND[mode]} error, nothing re-sent, no cancel`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 0, mode } });
        const result = await r.turn('slow');
        expectError(result, BREAK_KIND[mode], { operation: 'stream' });
        expect(eventsOf(result, 'task')).toEqual([]);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
        await expectCancels(r, 0);
      });

      it(`cut (${mode}) after 4 events → resubscribe, the whole reply once`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode } });
        const result = await r.turn('slow');
        expectReply(result, SLOW_REPLY);
        expect(eventsOf(result, 'reconnecting')).toMatchObject([{ attempt: 1, cause: { kind: BREAK_KIND[mode] } }]);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 1, 0]);
        await expectCancels(r, 0);
      });
    }

    for (const mode of ['end', 'destroy'] as const) {
      it(`cut mid-event (${mode}) in the first event → ${BREAK_KIND[mode]} error, no task, nothing re-sent`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'cut-mid-event', afterEvents: 0, mode } });
        const result = await r.turn('slow');
        expectError(result, BREAK_KIND[mode]);
        expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
        await expectCancels(r, 0);
      });

      it(`cut mid-event (${mode}) in the 4th event → the half event is dropped, resubscribe, the whole reply once`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'cut-mid-event', afterEvents: 3, mode } });
        const result = await r.turn('slow');
        expectReply(result, SLOW_REPLY);
        expect(eventsOf(result, 'reconnecting')).toHaveLength(1);
        expect(r.reached('resubscribe')).toBe(1);
        await expectCancels(r, 0);
      });
    }

    it('a resubscribe cut too (mid-event) → another resubscribe, the whole reply once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 3, mode: 'destroy' } });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'cut-mid-event', afterEvents: 2, mode: 'destroy' } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconnecting').map((e) => e.attempt)).toEqual([1, 1]);
      expect(r.reached('resubscribe')).toBe(2);
      await expectCancels(r, 0);
    });

    it('a stall shorter than the idle bound → completes on the same stream', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 150 } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconnecting')).toEqual([]);
      expect(r.reached('resubscribe')).toBe(0);
      await expectCancels(r, 0);
    });

    it('a stall longer than the idle bound → idle timeout, resubscribe, the whole reply once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: 2_000 } });
      // Idle 120 ms: the bound fires while the task still ticks (every 15 ms), so the resubscribe joins it live.
      const result = await r.turn('slow', { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 120 } });
      expectReply(result, SLOW_REPLY);
      // A loaded machine may stretch a later gap past 120 ms too: then one more resubscribe, same reply.
      expect(eventsOf(result, 'reconnecting')[0]).toMatchObject({ attempt: 1, cause: { kind: 'timeout', phase: 'idle' } });
      expect(r.reached('resubscribe')).toBeGreaterThanOrEqual(1);
      expect([r.reached('stream'), r.reached('send')]).toEqual([1, 0]);
      await expectCancels(r, 0);
    });

    it('the task settles during a long stall → the resubscribe (or the GetTask after it) brings the whole reply', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: Infinity } });
      const result = await r.turn('artifacts');
      expectReply(result, REPLY.artifacts);
      expect(eventsOf(result, 'reconnecting')).toMatchObject([{ attempt: 1, cause: { kind: 'timeout', phase: 'idle' } }]);
      // v1.0 refuses SubscribeToTask on a terminal task (-32004) and the ladder polls; v0.3 answers with the snapshot.
      expect(eventsOf(result, 'polling')).toHaveLength(version.name.startsWith('v1') ? 1 : 0);
      await expectCancels(r, 0);
    });

    it('a stall before the first event → first-event timeout, no task, nothing re-sent', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 0, ms: Infinity } });
      const result = await r.turn('slow', { ...POLICY, policy: { ...POLICY.policy, firstEventTimeoutMs: 300 } });
      expectError(result, 'timeout', { phase: 'first-event' });
      expect([r.reached('stream'), r.reached('resubscribe'), r.reached('send')]).toEqual([1, 0, 0]);
      await expectCancels(r, 0);
    });

    for (const [text, reply] of [
      ['artifacts', REPLY.artifacts],
      ['status', REPLY.status],
    ] as const) {
      it(`drip, one byte per event-loop turn (${text}) → completes`, async () => {
        const r = rig();
        r.proxy.plan({ on: 'stream', fault: { type: 'drip', delayMs: 0 } });
        const result = await r.turn(text, PATIENT);
        expectReply(result, reply);
        expect(eventsOf(result, 'reconnecting')).toEqual([]);
        await expectCancels(r, 0);
      });
    }

    it('drip, one byte per millisecond (message) → completes', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'drip', delayMs: 1 } });
      expectReply(await r.turn('message', PATIENT), REPLY.message);
      await expectCancels(r, 0);
    });

    it('abandoned mid-stream → CancelTask reaches the agent once', async () => {
      const r = rig();
      await new Promise<void>((resolve, reject) => {
        const subscription = runTurn(r.ports(r.proxy.url('/')), { text: 'slow' }, POLICY).subscribe({
          next: (event) => {
            if (event.type !== 'text') return;
            subscription.unsubscribe();
            resolve();
          },
          error: reject,
        });
      });
      await expectCancels(r, 1);
    });

    it('the turn deadline during a stall → timeout (turn), CancelTask once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 3, ms: Infinity } });
      const result = await run(
        runTurn(
          r.ports(r.proxy.url('/')),
          { text: 'slow' },
          { ...POLICY, policy: { ...POLICY.policy, idleTimeoutMs: 2_000, turnTimeoutMs: 400 } },
        ),
      );
      expectError(result, 'timeout', { phase: 'turn' });
      await expectCancels(r, 1);
    });
  });
}
