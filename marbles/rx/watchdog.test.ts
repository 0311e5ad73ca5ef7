import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { watchdog, type Budget } from '../../src/rx/watchdog.js';
import { marbles } from '../helpers.js';

// The watchdog is the clock of every live stream and of polling (first event, idle gap, auth wait,
// staleness, the whole turn): pinned here on its own, frame by frame, apart from the ladder.
const expiredError = new Error('expired');
/** The budget each letter sets; any other value keeps the clock running. */
const budgets: Record<string, Budget> = { a: 'keep', b: 3, c: 1, d: 6 };
const byLetter = (value: string): Budget => budgets[value] ?? 'keep';

/** An `expired` that counts its calls, to tell that a clock which must not fire never did. */
function expiry(): { expired: () => unknown; calls: () => number } {
  let calls = 0;
  return {
    expired: () => {
      calls++;
      return expiredError;
    },
    calls: () => calls,
  };
}

describe('watchdog', () => {
  it('the first bound: a source silent for that long is unsubscribed and the stream errors', () => {
    const { expired, calls } = expiry();
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold<string>('-');
      expectObservable(source.pipe(watchdog({ first: 4, each: byLetter, expired }))).toBe('----#', undefined, expiredError);
      expectSubscriptions(source.subscriptions).toBe('^---!');
    });
    expect(calls()).toBe(1);
  });

  // Each case: the source, the first bound, what comes out, and when the source is unsubscribed.
  const cases = [
    {
      title: "'keep' leaves the clock running: values inside the first bound do not move it",
      first: 5,
      source: '  -a-a----a|',
      expected: '-a-a-#',
      subs: '    ^----!',
    },
    {
      title: 'a budget restarts the clock from the value that set it, each time',
      // b (3 frames) at 1, 3 and 5: the bound moves to 4, then 6, then 8.
      first: 2,
      source: '  -b-b-b------b|',
      expected: '-b-b-b--#',
      subs: '    ^-------!',
    },
    {
      title: 'a budget shorter than what is left brings the expiry forward',
      // c (1 frame) at 2: the bound of 10 becomes 3.
      first: 10,
      source: '  --c------|',
      expected: '--c#',
      subs: '    ^--!',
    },
    {
      title: 'a budget longer than what is left pushes the expiry back',
      // d (6 frames) at 1: the bound of 2 becomes 7.
      first: 2,
      source: '  -d--------|',
      expected: '-d-----#',
      subs: '    ^------!',
    },
  ];
  for (const { title, first, source: diagram, expected, subs } of cases) {
    it(title, () => {
      marbles(({ cold, expectObservable, expectSubscriptions }) => {
        const source = cold(diagram);
        expectObservable(source.pipe(watchdog({ first, each: byLetter, expired: () => expiredError }))).toBe(expected, undefined, expiredError);
        expectSubscriptions(source.subscriptions).toBe(subs);
      });
    });
  }

  it('a value with a budget that comes in time keeps the stream going to its end', () => {
    const { expired, calls } = expiry();
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      // b (3 frames) every 2 frames: each comes before the bound the last one set.
      const source = cold('--b-b-b-|');
      expectObservable(source.pipe(watchdog({ first: 3, each: byLetter, expired }))).toBe('--b-b-b-|');
      expectSubscriptions(source.subscriptions).toBe('^-------!');
    });
    expect(calls()).toBe(0);
  });

  it('the error is what `expired` returns when the clock runs out, read then and not before', () => {
    marbles(({ cold, expectObservable }) => {
      let last = 'nothing';
      const source = cold('-b-a');
      const out = source.pipe(
        watchdog({ first: 5, each: (value: string) => {
            last = value;
            return byLetter(value);
          }, expired: () => new Error(`expired after ${last}`) }),
      );
      expectObservable(out).toBe('-b-a#', undefined, new Error('expired after a'));
    });
  });

  it('completion and errors of the source pass through, and the clock stops with them', () => {
    const { expired, calls } = expiry();
    const broken = new Error('broken');
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const completes = cold('-b|');
      const fails = cold('-b#', undefined, broken);
      expectObservable(completes.pipe(watchdog({ first: 3, each: byLetter, expired }))).toBe('-b|');
      expectObservable(fails.pipe(watchdog({ first: 3, each: byLetter, expired }))).toBe('-b#', undefined, broken);
      expectSubscriptions(completes.subscriptions).toBe('^-!');
      expectSubscriptions(fails.subscriptions).toBe('^-!');
    });
    expect(calls()).toBe(0);
  });

  it('unsubscribing from it unsubscribes the source and stops the clock', () => {
    const { expired, calls } = expiry();
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      // b (3 frames) at 1 set the clock for frame 4; leaving at 2 must stop it.
      const source = cold('-b-b-b-b-b|');
      expectObservable(source.pipe(watchdog({ first: 10, each: byLetter, expired })), '^-!').toBe('-b');
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
    expect(calls()).toBe(0);
  });

  it('on expiry the source is unsubscribed before the error goes out (its request is aborted first)', () => {
    const order: string[] = [];
    marbles(() => {
      const source = new Observable<string>(() => () => order.push('source unsubscribed'));
      source.pipe(watchdog({ first: 2, each: byLetter, expired: () => expiredError })).subscribe({ error: () => order.push('error') });
    });
    expect(order).toEqual(['source unsubscribed', 'error']);
  });
});
