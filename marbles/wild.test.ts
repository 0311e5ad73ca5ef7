import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { a2aError, labels, marbles, options } from './helpers.js';

// What agents in the wild do that our own fixtures did not: the ladder's side of it.
const card = testCard();
const drop = new A2AError({ kind: 'network', message: 'terminated' });
const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);

describe('agents in the wild', () => {
  it('HTTP 404 on a follow-up stream is not "task gone": one blocking send, still with the task id', () => {
    let calls: FakePortCall[] = [];
    const refused = new A2AError({ kind: 'unsupported', status: 404, message: 'stream was refused with HTTP 404' });
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold<never>('-#', undefined, refused),
        send: () => cold('-(m|)', { m: ev.message('Blocking.') }),
      });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('sf(te|)', {
        s: 'start',
        f: 'fallback to send (unsupported)',
        t: 'text "Blocking."',
        e: 'end completed "Blocking."',
      });
      calls = port.calls;
    });
    expect(calls.flatMap((c) => ('message' in c ? [c.message.taskId] : []))).toEqual(['T0', 'T0']);
  });

  it('a status-update that names no task, after the task is known, is the turn\'s task: it completes the turn', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a---b-c|', { a: ev.task('T', 'working'), b: ev.artifact('T', 'A', 'Done.'), c: ev.status('', 'completed') }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)x-(ye|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        x: 'text "Done."',
        y: 'status completed',
        e: 'end completed "Done."',
      });
    });
  });

  it('no CancelTask to a task the agent says it does not know (resubscribe, then GetTask: TaskNotFound)', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a---#', { a: ev.task('T', 'working') }, drop),
        resubscribe: () => cold<never>('-#', undefined, notFound),
        getTask: () => cold<never>('-#', undefined, notFound),
        cancel: () => cold('(x|)', { x: ev.task('T', 'canceled').task }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)r 10ms p#', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        p: 'polling (resubscribe-failed)',
      }, a2aError({ kind: 'task-not-found' }));
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'getTask']);
  });
});

describe('bounds that meet', () => {
  it('a turn deadline during an auth wait ends the turn as auth-required, not as an error, and cancels nothing', () => {
    let calls: FakePortCall[] = [];
    const short = { ...options, policy: { ...options.policy, turnTimeoutMs: 100, authWaitMs: 300 } };
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a---b', { a: ev.task('T', 'working'), b: ev.status('T', 'auth-required', 'Sign in: https://idp/x') });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'hi' }, short).pipe(labels)).toBe('s(tw)(ua) 91ms (xe|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: 'status auth-required "Sign in: https://idp/x"',
        a: 'auth-required "Sign in: https://idp/x"',
        x: 'text "Sign in: https://idp/x"',
        e: 'end auth-required "Sign in: https://idp/x"',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^ 99ms !');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });
});
