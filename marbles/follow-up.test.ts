import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, callByCall, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { labels, marbles, options } from './helpers.js';

const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const terminal = new A2AError({ kind: 'unsupported', code: -32004, message: 'task is in a terminal state' });
const sentTaskIds = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []));

describe('follow-ups to an interrupted task', () => {
  it('a follow-up whose task is gone is sent once more with the contextId only', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard() }),
        stream: callByCall(cold<never>('-#', undefined, notFound), cold('-m|', { m: ev.message('Fresh start.') })),
      });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('sg(te|)', {
        s: 'start',
        g: 'task T0 gone (task-not-found)',
        t: 'text "Fresh start."',
        e: 'end completed "Fresh start."',
      });
      calls = port.calls;
    });
    expect(sentTaskIds(calls)).toEqual(['T0', null]);
    expect(calls.filter((c) => c.method === 'stream').map((c) => ('message' in c ? c.message.contextId : ''))).toEqual(['C', 'C']);
  });

  it('-32004 on a follow-up means the task finished: once more without it, then the usual stream fallback', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard() }),
        stream: () => cold<never>('-#', undefined, terminal),
        send: () => cold('-(m|)', { m: ev.message('Blocking.') }),
      });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('sgf(te|)', {
        s: 'start',
        g: 'task T0 gone (unsupported)',
        f: 'fallback to send (unsupported)',
        t: 'text "Blocking."',
        e: 'end completed "Blocking."',
      });
      calls = port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'stream', 'send']);
    expect(sentTaskIds(calls)).toEqual(['T0', null, null]);
  });

  it('the blocking rung does the same', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard({ streaming: false }) }),
        send: callByCall(cold<never>('-#', undefined, notFound), cold('-(m|)', { m: ev.message('ok') })),
      });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('sg(te|)', {
        s: 'start',
        g: 'task T0 gone (task-not-found)',
        t: 'text "ok"',
        e: 'end completed "ok"',
      });
      calls = port.calls;
    });
    expect(sentTaskIds(calls)).toEqual(['T0', null]);
  });

  it('without a task id, TaskNotFound is the error: nothing is sent twice', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({ card: () => cold('(c|)', { c: testCard() }), stream: () => cold<never>('-#', undefined, notFound) });
      expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, options).pipe(labels)).toBe('s#', { s: 'start' }, notFound);
      calls = port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('a gone task on the blocking rung, then an early answer: one polling note, one poller', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard({ streaming: false }) }),
        send: callByCall(cold<never>('-#', undefined, notFound), cold('-(r|)', { r: ev.task('T1', 'working') })),
        getTask: () => cold('-(t|)', { t: { id: 'T1', status: { state: 'completed' as const }, artifacts: [] } }),
      });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('sg(twp) 6ms (ce|)', {
        s: 'start',
        g: 'task T0 gone (task-not-found)',
        t: 'task T1',
        w: 'status working',
        p: 'polling (send-returned-early)',
        c: 'status completed',
        e: 'end completed ""',
      });
      calls = port.calls;
    });
    expect(calls.filter((c) => c.method === 'getTask')).toHaveLength(1);
  });
});
