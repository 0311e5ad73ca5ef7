import { describe, expect, it } from 'vitest';
import { createFakePort, ev, task, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { labels, marbles, options } from './helpers.js';

const card = testCard();
const signIn = 'Sign in at http://127.0.0.1/login';
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);

describe('interrupted states', () => {
  it('INPUT_REQUIRED ends the turn and closes the stream the server keeps open', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a----b------', { a: ev.task('T', 'working'), b: ev.status('T', 'input-required', 'Which city?') });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'book' }, options).pipe(labels)).toBe('s(tw)-(uhe|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: 'status input-required "Which city?"',
        h: 'text "Which city?"',
        e: 'end input-required "Which city?"',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^-----!');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });

  it('AUTH_REQUIRED is announced at once, the stream stays open past the idle bound, and it resumes to COMPLETED', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a----b 99ms c-d|', {
        a: ev.task('T', 'working'),
        b: ev.status('T', 'auth-required', signIn),
        c: ev.status('T', 'working'),
        d: ev.status('T', 'completed', 'Welcome back.'),
      });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'mail' }, options).pipe(labels)).toBe('s(tw)-(ua) 96ms w-(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: `status auth-required "${signIn}"`,
        a: `auth-required "${signIn}"`,
        c: 'status completed "Welcome back."',
        h: 'text "Welcome back."',
        e: 'end completed "Welcome back."',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^ 107ms !');
    });
  });

  it('ends with outcome auth-required when the auth wait expires, and does not cancel the task', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a----b', { a: ev.task('T', 'working'), b: ev.status('T', 'auth-required', signIn) });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'mail' }, options).pipe(labels)).toBe('s(tw)-(ua) 296ms (he|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: `status auth-required "${signIn}"`,
        a: `auth-required "${signIn}"`,
        h: `text "${signIn}"`,
        e: `end auth-required "${signIn}"`,
      });
      expectSubscriptions(stream$.subscriptions).toBe('^ 305ms !');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });

  it('keeps the auth-wait clock running across repeated AUTH_REQUIRED events', () => {
    marbles(({ cold, expectObservable }) => {
      const stream$ = cold('-a----b 199ms b', { a: ev.task('T', 'working'), b: ev.status('T', 'auth-required', signIn) });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      // the repeat at 206 does not restart the 300 ms wait that began at 6.
      expectObservable(runTurn(port, { text: 'mail' }, options).pipe(labels)).toBe('s(tw)-(ua) 296ms (he|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: `status auth-required "${signIn}"`,
        a: `auth-required "${signIn}"`,
        h: `text "${signIn}"`,
        e: `end auth-required "${signIn}"`,
      });
    });
  });

  it('asks once with GetTask when the server closes the stream at AUTH_REQUIRED', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const get$ = cold('---(t|)', { t: task('T', 'auth-required', { message: signIn }) });
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----b|', { a: ev.task('T', 'working'), b: ev.status('T', 'auth-required', signIn) }),
        getTask: () => get$,
      });
      expectObservable(runTurn(port, { text: 'mail' }, options).pipe(labels)).toBe('s(tw)-(ua)(he|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        u: `status auth-required "${signIn}"`,
        a: `auth-required "${signIn}"`,
        h: `text "${signIn}"`,
        e: `end auth-required "${signIn}"`,
      });
      expectSubscriptions(get$.subscriptions).toBe('7ms ^--!');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'getTask']);
  });
});
