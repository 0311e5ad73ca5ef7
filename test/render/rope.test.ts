import fc from 'fast-check';
import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/port/events.js';
import { TextRope } from '../../src/render/rope.js';
import { initialTurnView, reduceTurn, turnState, type TurnView } from '../../src/render/view.js';

// A growing reply is kept as a short rope of flat blocks (1,024 chunks each): the text it gives must be
// exactly the concatenation, across block ends, and after the text was set another way.
describe('a text grown chunk by chunk', () => {
  it('is every chunk in order, across the points where the blocks are flattened', () => {
    const rope = new TextRope();
    let text = '';
    let expected = '';
    for (let i = 0; i < 3_000; i++) {
      text = rope.append(text, `<${i}>`);
      expected += `<${i}>`;
    }
    expect(text).toBe(expected);
  });

  it('starts again from a text set another way (a replace), not from what it grew before', () => {
    const rope = new TextRope();
    let text = '';
    for (let i = 0; i < 1_500; i++) text = rope.append(text, 'a');
    text = rope.append('replaced', '!');
    expect(text).toBe('replaced!');
    for (let i = 0; i < 1_100; i++) text = rope.append(text, 'b');
    expect(text).toBe(`replaced!${'b'.repeat(1_100)}`);
  });

  const step = fc.oneof(
    fc.record({ kind: fc.constant('append' as const), text: fc.string({ maxLength: 4 }), times: fc.integer({ min: 1, max: 1_200 }) }),
    fc.record({ kind: fc.constant('other' as const), text: fc.string({ maxLength: 8 }) }),
  );

  it('turnState folds the same views as reduceTurn, whatever appends, replaces and restarts come', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 5 }), async (steps) => {
        const events: TurnEvent[] = [{ type: 'start', contextId: 'C' }];
        for (const s of steps) {
          if (s.kind === 'append') for (let i = 0; i < s.times; i++) events.push({ type: 'text', text: s.text, replace: false });
          else events.push({ type: 'text', text: s.text, replace: true }, { type: 'status', state: 'working', text: s.text });
        }
        events.push({ type: 'end', outcome: 'completed', text: 'end' }, { type: 'start' }, { type: 'text', text: 'again', replace: false });
        const views = await lastValueFrom(of(...events).pipe(turnState(), toArray()));
        const folded: TurnView[] = [];
        events.reduce((view, event) => {
          const next = reduceTurn(view, event);
          folded.push(next);
          return next;
        }, initialTurnView);
        expect(views).toEqual(folded);
      }),
      { numRuns: 25 },
    );
  });
});
