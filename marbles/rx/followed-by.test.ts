import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { followedBy } from '../../src/rx/followed-by.js';

// `followedBy` is `concatWith(defer(next))` in one hop: the ladder's stream followed by its reconciling read.
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('followedBy', () => {
  it('subscribes next() when the source completes, in its place, and ends with it', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-a-|');
      const then = cold('  -b|');
      expectObservable(source.pipe(followedBy(() => then))).toBe('-a--b|');
      expectSubscriptions(source.subscriptions).toBe('^--!');
      expectSubscriptions(then.subscriptions).toBe('---^-!');
    });
  });

  it('never makes next() when the source errors, and errors when next() throws', () => {
    let made = 0;
    scheduler().run(({ cold, expectObservable }) => {
      const failing = cold('-a#', { a: 'a' }, 'boom').pipe(followedBy(() => (made++, cold('b|'))));
      expectObservable(failing).toBe('-a#', { a: 'a' }, 'boom');
      const throwing = cold('-a|').pipe(
        followedBy((): never => {
          throw new Error('no next');
        }),
      );
      expectObservable(throwing).toBe('-a#', { a: 'a' }, new Error('no next'));
    });
    expect(made).toBe(0);
  });

  it('unsubscribes next when the consumer leaves during it', () => {
    scheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const then = cold('-b-c|');
      expectObservable(cold('a|').pipe(followedBy(() => then)), '^--!').toBe('a-b');
      expectSubscriptions(then.subscriptions).toBe('-^-!');
    });
  });
});
