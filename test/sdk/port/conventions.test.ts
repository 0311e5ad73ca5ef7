import { describe, expect, it } from 'vitest';
import { CONVENTION_REPLY, PROGRESS_STRINGS } from '../../../fixtures/index.js';
import { runTurn } from '../../../src/turn/turn.js';
import { calls, collect, endOf, FAST, folded, useTargetRig, TARGETS, type Rig } from '../harness.js';

// The four status-message conventions of real frameworks (fixtures/conventions.ts): in each the end
// text is the whole answer once, the streamed text events fold to it, and nothing is cancelled.
const CASES = [
  ['progress', 'progress strings, the answer in an artifact (LangGraph sample)', 'completed'],
  ['partials', 'flagged partial deltas, then one full message and an artifact (kagent ≤ 0.9)', 'completed'],
  ['deltas', 'plain delta chunks of one message, ending input-required with no message (gemini-cli, main branch)', 'input-required'],
  ['published', 'delta chunks each a message of its own, marked text-content (gemini-cli 0.25.2 as published)', 'input-required'],
  ['snapshots', 'cumulative Task snapshots repeating the text so far (VoltAgent, v0.3)', 'completed'],
  ['cumulative', 'cumulative status messages of one message', 'completed'],
] as const;

for (const target of TARGETS) {
  describe(`${target.name}: status-message conventions`, () => {
    let r: Rig;
    useTargetRig(target, (x) => (r = x));

    for (const [word, what, outcome] of CASES) {
      // A v1.0 server refuses a second Task in a stream: Task snapshots are a v0.3 convention.
      if (word === 'snapshots' && target.name.startsWith('v1.0')) continue;
      it(`${word}: ${what} → the reply once, whole`, async () => {
        const events = await collect(runTurn(r.ports(r.agent.url(target.main)), { text: word }, FAST));
        expect(endOf(events)).toMatchObject({ outcome, text: CONVENTION_REPLY });
        expect(folded(events)).toBe(CONVENTION_REPLY);
        expect(calls(r.agent, target, 'cancel')).toEqual([]);
        if (word === 'progress') {
          const previews = events.flatMap((e) => (e.type === 'status' && e.text !== undefined ? [e.text] : []));
          expect(previews).toEqual(expect.arrayContaining([...PROGRESS_STRINGS]));
        }
      });
    }
  });
}
