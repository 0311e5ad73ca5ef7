import fc from 'fast-check';
import { from, lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { TurnEvent } from '../../src/port/events.js';
import { afterDelivered, formatPosition, parsePosition, positionAfter, type ReplyPosition } from '../../src/render/position.js';

const text = (t: string, replace = false): TurnEvent => ({ type: 'text', text: t, replace });
const fold = (events: TurnEvent[]): string => events.reduce((r, e) => (e.type === 'text' ? (e.replace ? e.text : r + e.text) : r), '');
const rest = async (delivered: number, events: TurnEvent[]) => lastValueFrom(from(events).pipe(afterDelivered(delivered), toArray()));

describe('reply positions', () => {
  it('positionAfter: the task names it, appends add, a replace sets, each with the checksum of the text so far; nothing before the task', () => {
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
      // FNV-1a of '', 'Hel', 'Hello', 'Hi!' (computed apart from the code under test).
      { taskId: 'T', delivered: 0, digest: '811c9dc5' },
      { taskId: 'T', delivered: 3, digest: '6d3f47ce' },
      { taskId: 'T', delivered: 5, digest: 'f55c314b' },
      { taskId: 'T', delivered: 3, digest: '325d0001' },
    ]);
    // A position the client sent back in the older form (no checksum) goes on without one, until a replace.
    expect(positionAfter({ taskId: 'T', delivered: 2 }, text('lo'))).toEqual({ taskId: 'T', delivered: 4 });
  });

  it('format and parse are inverse for any task id; other ids are none of ours', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.nat(), (taskId, delivered) => {
        fc.pre(taskId.trim() === taskId);
        expect(parsePosition(formatPosition({ taskId, delivered }))).toEqual({ taskId, delivered });
        expect(parsePosition(formatPosition({ taskId, delivered, digest: '0a1b2c3d' }))).toEqual({ taskId, delivered, digest: '0a1b2c3d' });
      }),
    );
    expect(formatPosition({ taskId: 'T', delivered: 5, digest: 'f55c314b' })).toBe('5.hf55c314b.T');
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

  it("afterDelivered with the checksum: a client whose copy is not the reply's beginning gets the reply whole, once", async () => {
    const events = [text('Hello, '), text('wor'), text('ld')];
    // The client showed "Hel" (its checksum matches): the rest, as without one.
    expect(await lastValueFrom(from(events).pipe(afterDelivered(3, '6d3f47ce'), toArray()))).toEqual([
      text('lo, '),
      text('wor'),
      text('ld'),
    ]);
    // The client has 7 characters that are not "Hello, " (a chunk shown twice, or one missed): corrected whole.
    expect(await lastValueFrom(from(events).pipe(afterDelivered(7, 'deadbeef'), toArray()))).toEqual([
      text('Hello, wor', true),
      text('ld'),
    ]);
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
