/**
 * Fault matrix, part 4: what agents in the wild do, through the fault proxy, per protocol version
 * and reader. Each cell asserts the exact reply (or the outcome) and the agent's CancelTask count.
 */
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { eventsOf, expectCancels, expectReply, POLICY, SLOW_REPLY, sleep, useRig, VERSIONS } from './kit.js';

for (const version of VERSIONS) {
  describe(`${version.name}: agents in the wild`, () => {
    const rig = useRig(version);

    it('a resubscribe that opens without its snapshot (Python a2a-sdk) → reconciled with one GetTask: the whole reply once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'destroy' } });
      r.proxy.plan({ on: 'resubscribe', fault: { type: 'skip', events: 1 } });
      const result = await r.turn('slow');
      expectReply(result, SLOW_REPLY);
      expect(eventsOf(result, 'reconcile')).toMatchObject([{ reason: 'resubscribed-without-snapshot' }]);
      expect(r.reached('get')).toBeGreaterThanOrEqual(1);
      await expectCancels(r, 0);
    });

    it('a turn left before its first event → the stream is read on until the task is named, and CancelTask reaches the agent once', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 0, ms: 150 } });
      const subscription = runTurn(r.ports(r.proxy.url('/')), { text: 'slow' }, POLICY).subscribe({ error: () => undefined });
      await eventually(() => r.reached('stream') === 1);
      await sleep(30);
      subscription.unsubscribe();
      await expectCancels(r, 1);
    });
  });
}
