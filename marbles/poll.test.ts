import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, callByCall, task, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { a2aError, labels, marbles, options } from './helpers.js';

const nonStreaming = testCard({ streaming: false });
const early = { s: 'start', t: 'task T', w: 'status working', p: 'polling (send-returned-early)' };

describe('the poll rung', () => {
  it('ends with a stale timeout when the polled task never changes, and cancels it', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: nonStreaming }),
        send: () => cold('-(r|)', { r: ev.task('T', 'working') }),
        getTask: () => cold('-(t|)', { t: task('T', 'working') }),
        cancel: () => cold('(x|)', { x: task('T', 'canceled') }),
      });
      // the first poll answers at 12; the same task every 11 frames after that; stale after 100 → 112.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(twp) 106ms #', early, a2aError({ kind: 'timeout', phase: 'stale' }));
      calls = port.calls;
    });
    expect(calls.filter((c) => c.method === 'getTask')).toHaveLength(10);
    expect(calls.filter((c) => c.method === 'cancel')).toHaveLength(1);
  });

  it('a task that keeps changing is not stale', () => {
    marbles(({ cold, expectObservable }) => {
      const working = (n: number) => task('T', 'working', { message: `step ${n}` });
      const polls = Array.from({ length: 12 }, (_, i) => cold('-(t|)', { t: i < 11 ? working(i) : task('T', 'completed', { message: 'done' }) }));
      const port = createFakePort({
        card: () => cold('(c|)', { c: nonStreaming }),
        send: () => cold('-(r|)', { r: ev.task('T', 'working') }),
        getTask: callByCall(...polls),
      });
      const result = runTurn(port, { text: 'hi' }, options).pipe(labels);
      // twelve polls, 11 frames apart, past the 100 ms staleness bound: the last answers at 12 + 11 × 11 = 133.
      expectObservable(result).toBe('s(twp) 6ms a 10ms b 10ms c 10ms d 10ms e 10ms f 10ms g 10ms h 10ms i 10ms j 10ms k 10ms (ClE|)', {
        ...early,
        ...Object.fromEntries('abcdefghijk'.split('').map((letter, i) => [letter, `status working "step ${i}"`])),
        C: 'status completed "done"',
        l: 'text "done"',
        E: 'end completed "done"',
      });
    });
  });

  it('tries a failed GetTask again, and errors when the failures in a row exceed poll.maxErrors', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const down = new A2AError({ kind: 'network', message: 'fetch failed' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: nonStreaming }),
        send: () => cold('-(r|)', { r: ev.task('T', 'working') }),
        getTask: () => cold<never>('-#', undefined, down),
        cancel: () => cold('(x|)', { x: task('T', 'canceled') }),
      });
      // first poll at 11 fails at 12, tried again 10 later (22), fails at 23.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(twp) 17ms #', early, down);
      calls = port.calls;
    });
    expect(calls.filter((c) => c.method === 'getTask')).toHaveLength(2);
  });

  it('bounds each GetTask', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const hang$ = cold<never>('-');
      const port = createFakePort({
        card: () => cold('(c|)', { c: nonStreaming }),
        send: () => cold('-(r|)', { r: ev.task('T', 'working') }),
        getTask: () => hang$,
        cancel: () => cold('(x|)', { x: task('T', 'canceled') }),
      });
      // poll at 11 times out at 31, again at 41, times out at 61.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe(
        's(twp) 55ms #',
        early,
        a2aError({ kind: 'timeout', phase: 'poll-request' }),
      );
      expectSubscriptions(hang$.subscriptions).toBe(['11ms ^ 19ms !', '41ms ^ 19ms !']);
    });
  });

  it('does not try again after an error that is not retryable', () => {
    marbles(({ cold, expectObservable }) => {
      const gone = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: nonStreaming }),
        send: () => cold('-(r|)', { r: ev.task('T', 'working') }),
        getTask: () => cold<never>('-#', undefined, gone),
        cancel: () => cold('(x|)', { x: task('T', 'canceled') }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(twp) 6ms #', early, gone);
    });
  });
});
