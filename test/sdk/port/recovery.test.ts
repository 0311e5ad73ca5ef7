import { describe, expect, it } from 'vitest';
import { REPLY } from '../../../fixtures/index.js';
import { runTurn } from '../../../src/turn/turn.js';
import { calls, collect, endOf, FAST, folded, useTargetRig, TARGETS, type Rig } from '../harness.js';

for (const target of TARGETS) {
  describe(`${target.name}: recovery`, () => {
    let r: Rig;
    useTargetRig(target, (x) => (r = x));

    for (const [text, reply] of [
      ['drop', REPLY.drop],
      ['cut', REPLY.cut],
    ] as const) {
      it(`${text}: the broken stream is resumed by resubscribing, and the reply comes once`, async () => {
        const events = await collect(runTurn(r.ports(r.agent.url(target.main)), { text }, FAST));
        expect(events).toContainEqual(expect.objectContaining({ type: 'reconnecting', attempt: 1 }));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: reply });
        expect(folded(events)).toBe(reply);
        expect(calls(r.agent, target, 'stream')).toHaveLength(1);
        expect(calls(r.agent, target, 'resubscribe').length).toBeGreaterThanOrEqual(1);
        expect(calls(r.agent, target, 'send')).toEqual([]);
      });
    }

    if (target.noresub) {
      const mount = target.noresub;
      it('a refused resubscribe recovers through polling', async () => {
        const events = await collect(runTurn(r.ports(r.agent.url(mount)), { text: 'drop' }, FAST));
        expect(events).toContainEqual(expect.objectContaining({ type: 'polling', reason: 'resubscribe-failed' }));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.drop });
        expect(folded(events)).toBe(REPLY.drop);
        expect(calls(r.agent, target, 'resubscribe')).toHaveLength(1);
        expect(calls(r.agent, target, 'get').length).toBeGreaterThanOrEqual(1);
      });
    }

    if (target.nostream) {
      const mount = target.nostream;
      it('a non-streaming card goes through the blocking send', async () => {
        const events = await collect(runTurn(r.ports(r.agent.url(mount)), { text: 'artifacts' }, FAST));
        expect(endOf(events)).toMatchObject({ outcome: 'completed', text: REPLY.artifacts });
        expect(calls(r.agent, target, 'send')).toHaveLength(1);
        expect(calls(r.agent, target, 'stream')).toEqual([]);
      });
    }
  });
}
