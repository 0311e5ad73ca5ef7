import { describe, expect, it, vi } from 'vitest';
import { A2AError } from '../src/errors.js';
import type { Logger } from '../src/logger.js';
import type { AgentEvent } from '../src/port/types.js';
import { createFakePort, ev, task, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { a2aError, labels, marbles, options } from './helpers.js';

const card = testCard();
const canceled = task('T', 'canceled');
const cancels = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'cancel');

type LogFn = (fields: Record<string, unknown>, message: string) => void;

function spyLogger() {
  return { debug: vi.fn<LogFn>(), info: vi.fn<LogFn>(), warn: vi.fn<LogFn>(), error: vi.fn<LogFn>() } satisfies Logger;
}

describe('cancel: abort and CancelTask when the turn is abandoned', () => {
  it('on unsubscribe mid-stream: the stream is unsubscribed and CancelTask is sent once, outliving the teardown', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a------', { a: ev.task('T', 'working') });
      const cancel$ = cold('--(x|)', { x: canceled });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, cancel: () => cancel$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels), '^-----!').toBe('s(tw)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^-----!');
      expectSubscriptions(cancel$.subscriptions).toBe('6ms ^-!');
      calls = port.calls;
    });
    expect(cancels(calls)).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('after the end: no CancelTask', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----b|', { a: ev.task('T', 'working'), b: ev.status('T', 'completed') }),
        cancel: () => cold('(x|)', { x: canceled }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels), '^----------!').toBe('s(tw)-(ce|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        c: 'status completed',
        e: 'end completed ""',
      });
      calls = port.calls;
    });
    expect(cancels(calls)).toEqual([]);
  });

  it('left before the task is known: the stream is read on until the agent names its task, then CancelTask once', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-----a', { a: ev.task('T', 'working') });
      const cancel$ = cold('--(x|)', { x: canceled });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, cancel: () => cancel$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels), '^--!').toBe('s', { s: 'start' });
      expectSubscriptions(stream$.subscriptions).toBe('^----!');
      expectSubscriptions(cancel$.subscriptions).toBe('-----^-!');
      calls = port.calls;
    });
    expect(cancels(calls)).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('left before the task is known, and the agent never names it: read on for cancelTimeoutMs, then aborted; nothing to cancel', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold<AgentEvent>('-');
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels), '^--!').toBe('s', { s: 'start' });
      expectSubscriptions(stream$.subscriptions).toBe('^ 22ms !');
      calls = port.calls;
    });
    expect(cancels(calls)).toEqual([]);
  });

  it('a blocking send left before it answered is read on too: its task is cancelled when it arrives', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const send$ = cold('----(r|)', { r: ev.task('T', 'working') });
      const cancel$ = cold('-(x|)', { x: canceled });
      const port = createFakePort({ card: () => cold('(c|)', { c: testCard({ streaming: false }) }), send: () => send$, cancel: () => cancel$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels), '^-!').toBe('s', { s: 'start' });
      expectSubscriptions(send$.subscriptions).toBe('^---!');
      expectSubscriptions(cancel$.subscriptions).toBe('----^!');
      calls = port.calls;
    });
    expect(cancels(calls)).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('on the turn deadline: the stream is aborted, CancelTask is sent once, and the turn errors with a timeout', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a', { a: ev.task('T', 'working') });
      const cancel$ = cold('-(x|)', { x: canceled });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, cancel: () => cancel$ });
      const short = { ...options, policy: { ...options.policy, turnTimeoutMs: 100, idleTimeoutMs: 500 } };
      expectObservable(runTurn(port, { text: 'hi' }, short).pipe(labels)).toBe(
        's(tw) 95ms #',
        { s: 'start', t: 'task T', w: 'status working' },
        a2aError({ kind: 'timeout', phase: 'turn', retryable: false }),
      );
      expectSubscriptions(stream$.subscriptions).toBe('^ 99ms !');
      expectSubscriptions(cancel$.subscriptions).toBe('100ms ^!');
      calls = port.calls;
    });
    expect(cancels(calls)).toHaveLength(1);
  });

  it('when the turn errors with the task unsettled: CancelTask once', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const malformed = new A2AError({ kind: 'protocol', message: 'malformed event: status.state' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a---#', { a: ev.task('T', 'working') }, malformed),
        cancel: () => cold('(x|)', { x: canceled }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)#', { s: 'start', t: 'task T', w: 'status working' }, malformed);
      calls = port.calls;
    });
    expect(cancels(calls)).toHaveLength(1);
  });

  it('a failed CancelTask is logged, not thrown', () => {
    const logger = spyLogger();
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const cancel$ = cold<never>('-#', undefined, new A2AError({ kind: 'network', message: 'refused' }));
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a', { a: ev.task('T', 'working') }),
        cancel: () => cancel$,
      });
      expectObservable(runTurn(port, { text: 'hi' }, { ...options, logger }).pipe(labels), '^---!').toBe('s(tw)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
      });
      expectSubscriptions(cancel$.subscriptions).toBe('4ms ^!');
    });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ taskId: 'T', kind: 'network' });
  });

  it('a CancelTask that hangs is bounded by its own deadline', () => {
    const logger = spyLogger();
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const cancel$ = cold<never>('-');
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a', { a: ev.task('T', 'working') }),
        cancel: () => cancel$,
      });
      expectObservable(runTurn(port, { text: 'hi' }, { ...options, logger }).pipe(labels), '^---!').toBe('s(tw)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
      });
      expectSubscriptions(cancel$.subscriptions).toBe('4ms ^ 19ms !');
    });
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ kind: 'timeout' });
  });
});
