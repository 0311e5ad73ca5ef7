/**
 * Orphan nothing (issue 48), through the fault proxy, per protocol version and reader: an agent that
 * sends no byte until its work is done (the proxy holds the stream's first event past the turn's
 * background read), and a turn left before the task was named. On v1.0 the task carrying the message
 * is found by its id (ListTasks with history) and cancelled; on v0.3 (no ListTasks) nothing is sent.
 */
import { describe, expect, it } from 'vitest';
import { runTurn } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { expectCancels, POLICY, sleep, TIMING, useRig, VERSIONS } from './kit.js';

/** The background read after the turn is left: short, so the lookup comes while the task still works. */
const SHORT_READ = { ...POLICY, policy: { ...POLICY.policy, cancelTimeoutMs: 200 } };

for (const version of VERSIONS) {
  describe(`${version.name}: a turn left before an agent silent until done named its task`, () => {
    // The `slow` task works for 3 s: longer than the held stream's background read and the lookup.
    const rig = useRig(version, { ...TIMING, slowTotalMs: 3_000 });
    const v1 = version.name.startsWith('v1.0');

    it(v1 ? 'the task carrying the message is looked up and cancelled once' : 'no ListTasks on v0.3: nothing is cancelled', async () => {
      const r = rig();
      r.proxy.plan({ on: 'stream', fault: { type: 'stall', afterEvents: 0, ms: 3_000 } });
      const request = { text: 'slow', contextId: 'ctx-orphan', messageId: 'm-orphan' };
      const subscription = runTurn(r.ports(r.proxy.url('/')), request, SHORT_READ).subscribe({ error: () => undefined });
      await eventually(() => r.reached('stream') === 1);
      await sleep(30);
      subscription.unsubscribe();
      if (!v1) await sleep(400);
      await expectCancels(r, v1 ? 1 : 0);
      const listed = r.agent.received.filter((q) => q.method === 'ListTasks');
      expect(listed.length > 0).toBe(v1);
    });
  });
}
