import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/port/events.js';
import { afterDelivered, formatPosition, parsePosition, positionAfter, type ReplyPosition } from '../../src/render/position.js';

const text = (t: string, replace = false): TurnEvent => ({ type: 'text', text: t, replace });
const fold = (events: TurnEvent[]): string => events.reduce((r, e) => (e.type === 'text' ? (e.replace ? e.text : r + e.text) : r), '');
const rest = async (delivered: number, events: TurnEvent[]) => lastValueFrom(from(events).pipe(afterDelivered(delivered), toArray()));

describe('reply positions', () => {
  it('positionAfter: the task names it, appends add, a replace sets; nothing before the task', () => {
    const events: TurnEvent[] = [
      { type: 'start' },
      text('ignored'),
      { type: 'task', taskId: 'T' },
      text('Hel'),
      text('lo'),
      text('Hi!', true),
    ];
    const seen = events.reduce<(ReplyPosition | undefined)[]>((all, e) => [...all, positionAfter(all.at(-1), e)], []);
    expect(seen).toEqual([
      undefined,
      undefined,
      { taskId: 'T', delivered: 0 },
      { taskId: 'T', delivered: 3 },
      { taskId: 'T', delivered: 5 },
      { taskId: 'T', delivered: 3 },
    ]);
  });

  it('format and parse are inverse for any task id; other ids are none of ours', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), (taskId, delivered) => {
        fc.pre(taskId.trim() === taskId);
        expect(parsePosition(formatPosition({ taskId, delivered }))).toEqual({ taskId, delivered });
      }),
    );
    for (const id of ['', 'abc', '.T', '-1.T', '12', 'x.T']) expect(parsePosition(id)).toBeUndefined();
  });

  it('afterDelivered: the text events carry only what the client lacks, cut mid-chunk; end is whole', async () => {
    const events: TurnEvent[] = [
      { type: 'start' },
      text('Hello, '),
      text('wor'),
      text('ld'),
      { type: 'end', outcome: 'completed', text: 'Hello, world' },
    ];
    const out = await rest(9, events);
    expect(out).toEqual([{ type: 'start' }, text('r'), text('ld'), { type: 'end', outcome: 'completed', text: 'Hello, world' }]);
    expect(await rest(0, events)).toEqual(events);
  });

  it('afterDelivered: the rebuilt reply may come as one replace; a replace after catching up passes whole', async () => {
    const out = await rest(5, [text('Hello, wor', true), text('ld'), text('Bye', true)]);
    expect(out).toEqual([text(', wor'), text('ld'), text('Bye', true)]);
  });

  it('for any reply cut into any appends and any count delivered, what was delivered and the rest make the reply once', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.string({ minLength: 1 }), { minLength: 1, maxLength: 8 }), fc.nat(), async (chunks, seed) => {
        const reply = chunks.join('');
        const delivered = seed % (reply.length + 1);
        const out = await rest(
          delivered,
          chunks.map((c) => text(c)),
        );
        expect(reply.slice(0, delivered) + fold(out)).toBe(reply);
      }),
    );
  });
});
