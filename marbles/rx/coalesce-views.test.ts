import { Subject, VirtualTimeScheduler } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { coalesceViews } from '../../src/rx/coalesce-views.js';
import { marbles } from '../helpers.js';

/** The window of these tests: 10 frames (10 virtual ms). */
const WINDOW = 10;

describe('coalesceViews(ms, isFinal)', () => {
  it('a window of 0 hands over every value', () => {
    marbles(({ cold, expectObservable }) => {
      const source = cold('abc|');
      expectObservable(source.pipe(coalesceViews(0, () => false))).toBe('abc|');
    });
  });

  it('errors the stream when isFinal throws', () => {
    const broken = new Error('broken');
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold(' a-b-c');
      const subs = '        ^-!';
      const expected = '    a-#';
      const isFinal = (value: string) => {
        if (value === 'b') throw broken;
        return false;
      };
      expectObservable(source.pipe(coalesceViews(WINDOW, isFinal))).toBe(expected, undefined, broken);
      expectSubscriptions(source.subscriptions).toBe(subs);
    });
  });

  it('a value the subscriber causes while it takes a view (re-entrant) waits for the window; no second timer', () => {
    const clock = new VirtualTimeScheduler();
    const source = new Subject<string>();
    const seen: string[] = [];
    source.pipe(coalesceViews(WINDOW, (value) => value === 'end', clock)).subscribe((value) => {
      seen.push(value);
      if (value === 'a') source.next('b');
    });
    source.next('a');
    expect(seen).toEqual(['a']);
    expect(clock.actions).toHaveLength(1);
    clock.flush();
    expect(seen).toEqual(['a', 'b']);
  });

  it.each([-1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31])('refuses a window of %s with a config error', (ms) => {
    expect(() => coalesceViews(ms, () => false)).toThrow(expect.objectContaining({ kind: 'config' }));
  });
});
