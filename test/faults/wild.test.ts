/**
 * Fault matrix, part 4: what agents in the wild do, through the fault proxy, per protocol version
 * and reader. Each cell asserts the exact reply (or the outcome) and the agent's CancelTask count.
 */
import { describe, expect, it } from 'vitest';
import { jafReply, startJafAgent, type JafAgent } from '../../fixtures/agent-jaf.js';
import { runTurn } from '../../src/turn/turn.js';
import { eventually } from '../eventually.js';
import { eventsOf, expectCancels, expectReply, POLICY, run, SLOW_REPLY, sleep, useAgentPortsRig, useRig, VERSIONS } from './kit.js';

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

for (const reader of ['a4h', 'sdk'] as const) {
  describe(`Juspay jaf 0.1.37 (v0.3 JSON-RPC, ${reader === 'sdk' ? "the SDK's" : 'our'} reader)`, () => {
    const rig = useAgentPortsRig<JafAgent>(startJafAgent, reader);

    it('streaming advertised, every message/stream refused by one untyped SSE frame with -32602 → one fallback, one blocking send: one task, the reply', async () => {
      const { agent, ports } = rig();
      const result = await run(runTurn(ports(agent.url('/')), { text: 'hello', contextId: 'ctx-jaf' }, POLICY));
      // jaf's completed task carries its reply twice (artifacts `response` and `final_result`): each is shown once.
      const end = expectReply(result, `${jafReply('hello')}\n\n${jafReply('hello')}`);
      expect(end).toMatchObject({ taskId: agent.tasks[0], contextId: 'ctx-jaf' });
      expect(eventsOf(result, 'fallback')).toMatchObject([{ from: 'stream', to: 'send', cause: { kind: 'protocol', code: -32602 } }]);
      expect(agent.tasks).toHaveLength(1);
      // The stream's refusal is the agent's, before it took the message: the blocking send is the only one it ran.
      expect(agent.received.map((r) => `${r.method} ${r.status}`)).toEqual([
        'GET /.well-known/agent-card.json 200',
        'message/stream 200',
        'message/send 200',
      ]);
    });
  });
}
