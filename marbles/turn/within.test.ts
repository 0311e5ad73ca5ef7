import { describe, it } from 'vitest';
import { within } from '../../src/turn/within.js';
import { a2aError, marbles } from '../helpers.js';

// `within` bounds a one-shot request (the card, a send, a cancel): a late first value is a timeout
// error of its phase and operation.
describe('within', () => {
  it('errors with a timeout of its phase and operation when the first value is late, unsubscribing the source', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('-----a|');
      expectObservable(source.pipe(within(3, 'card', 'card'))).toBe(
        '---#',
        undefined,
        a2aError({ kind: 'timeout', phase: 'card', operation: 'card', message: 'card timed out after 3 ms', retryable: true }),
      );
      expectSubscriptions(source.subscriptions).toBe('^--!');
    });
  });

  it('bounds only the first value: once one came in time, later ones may take as long as they like', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const source = cold('--a------b|');
      expectObservable(source.pipe(within(3, 'send', 'send'))).toBe('--a------b|');
      expectSubscriptions(source.subscriptions).toBe('^---------!');
    });
  });

  it('passes a completion or an error that comes in time', () => {
    const broken = new Error('broken');
    marbles(({ cold, expectObservable }) => {
      expectObservable(cold('--|').pipe(within(3, 'cancel', 'cancel'))).toBe('--|');
      expectObservable(cold('--#', undefined, broken).pipe(within(3, 'cancel', 'cancel'))).toBe('--#', undefined, broken);
    });
  });
});
