import { take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { spread } from '../../src/rx/spread.js';

// `spread` is the turn's per-event hop (the renderer, the thread's memory): it must behave as
// `startWith(...first)`, `concatMap(each)` over arrays and `concatWith(defer(last))` do together.
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('spread', () => {
  it('emits first on subscribe, each value as its array in place, and last before completing', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a--b-|');
      const out = source.pipe(spread({ first: ['s'], each: (v: string) => (v === 'a' ? ['a1', 'a2'] : []), last: () => ['z'] }));
      expectObservable(out).toBe('s(xy)-(z|)', { s: 's', x: 'a1', y: 'a2', z: 'z' });
      expectSubscriptions(source.subscriptions).toBe('^-----!');
    });
  });

  it('errors when each throws, and unsubscribes the source', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-b-c|');
      const out = source.pipe(
        spread({
          each: (v: string) => {
            if (v === 'b') throw new Error('bad b');
            return [v];
          },
          last: () => ['never'],
        }),
      );
      expectObservable(out).toBe('-a-#', { a: 'a' }, new Error('bad b'));
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('errors when last throws', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const out = cold('-a|').pipe(
        spread({
          each: (v: string) => [v],
          last: () => {
            throw new Error('unsettled');
          },
        }),
      );
      expectObservable(out).toBe('-a#', { a: 'a' }, new Error('unsettled'));
    });
  });

  it('passes the source error through without last', () => {
    scheduler().run(({ cold, expectObservable }) => {
      const out = cold('-a#', { a: 'a' }, 'boom').pipe(spread({ each: (v: string) => [v], last: () => ['z'] }));
      expectObservable(out).toBe('-a#', { a: 'a' }, 'boom');
    });
  });

  it('stops emitting an array, and never subscribes or ends, once the consumer has left', () => {
    let lasts = 0;
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a|');
      const out = source.pipe(
        spread({
          first: ['s'],
          each: () => ['x', 'y', 'z'],
          last: () => {
            lasts++;
            return ['end'];
          },
        }),
        take(3),
      );
      expectObservable(out).toBe('s(xy|)', { s: 's', x: 'x', y: 'y' });
      expectSubscriptions(source.subscriptions).toBe('^!');
      const before = cold('-a|');
      expectObservable(before.pipe(spread({ first: ['s', 't'], each: (v: string) => [v] }), take(1))).toBe('(s|)', { s: 's' });
      expectSubscriptions(before.subscriptions).toBe([]);
    });
    expect(lasts).toBe(0);
  });
});
