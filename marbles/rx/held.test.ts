import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { Held } from '../../src/rx/held.js';

// `Held` listens to a hot source at once and hands its values on when read: a push that comes before the turn reads is not lost.
const scheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('Held', () => {
  it('holds what comes before the read and hands it over at the read, then passes values on as they come', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions }) => {
      const source = hot('-a-b-----c-d');
      const held = new Held(source, 10);
      expectObservable(held.values$, '----^-------').toBe('----(ab)-c-d');
      expectSubscriptions(source.subscriptions).toBe('^');
    });
  });

  it('holds at most max values, the oldest dropped and counted', () => {
    let held!: Held<string>;
    scheduler().run(({ hot, expectObservable }) => {
      held = new Held(hot('-a-b-c-d-'), 2);
      expectObservable(held.values$, '--------^').toBe('--------(cd)');
    });
    expect(held.dropped).toBe(2);
  });

  it('tells the reader the source ended, before or after the read', () => {
    scheduler().run(({ hot, expectObservable }) => {
      expectObservable(new Held(hot('-a-|'), 5).values$, '-----^').toBe('-----(a|)');
      expectObservable(new Held(hot('-a---#'), 5).values$, '--^').toBe('--a--#');
    });
  });

  it('stops listening at release, and holds nothing after it', () => {
    scheduler().run(({ hot, expectObservable, expectSubscriptions, cold }) => {
      const source = hot('-a-b-c-');
      const held = new Held(source, 5);
      cold('--x|').subscribe(() => held.release());
      expectObservable(held.values$, '----^').toBe('-');
      expectSubscriptions(source.subscriptions).toBe('^-!');
    });
  });
});
