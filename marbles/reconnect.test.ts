import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, callByCall, task, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { a2aError, labels, marbles, options } from './helpers.js';

const drop = new A2AError({ kind: 'network', message: 'terminated' });
const card = testCard();
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);

describe('reconnect: resubscribe, never re-send', () => {
  it('resubscribes after a break with backoff, and the snapshot replaces the reply', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a----b-#', { a: ev.task('T', 'working'), b: ev.artifact('T', 'A', 'Hel') }, drop);
      const resub$ = cold('-s-d|', {
        s: ev.task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'Hello' }] }] }),
        d: ev.status('T', 'completed'),
      });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, resubscribe: () => resub$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)-h-r 10ms l-(ce|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        h: 'text "Hel"',
        r: 'reconnecting #1 in 10',
        l: 'text "lo"',
        c: 'status completed',
        e: 'end completed "Hello"',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^-------!');
      expectSubscriptions(resub$.subscriptions).toBe('18ms ^--!');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe']);
    expect(calls[2]).toEqual({ method: 'resubscribe', taskId: 'T' });
  });

  it('treats a clean close before a settled state as a break', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a---|', { a: ev.task('T', 'working') });
      const resub$ = cold('-d|', { d: ev.status('T', 'completed', 'Done.') });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, resubscribe: () => resub$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)r 10ms (che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        c: 'status completed "Done."',
        h: 'text "Done."',
        e: 'end completed "Done."',
      });
      expectSubscriptions(resub$.subscriptions).toBe('15ms ^!');
    });
  });

  it('errors when the stream breaks before any task id, and never re-sends', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => cold<never>('--#', undefined, drop) });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s-#', { s: 'start' }, drop);
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });

  it('errors when a clean close comes before any task id', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => cold('--|') });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s-#', { s: 'start' }, a2aError({ kind: 'stream-closed' }));
    });
  });

  it('reconnects when the stream goes idle past the idle bound', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('-a', { a: ev.task('T', 'working') });
      const resub$ = cold('-d|', { d: ev.status('T', 'completed') });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$, resubscribe: () => resub$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw) 26ms r 10ms (ce|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        c: 'status completed',
        e: 'end completed ""',
      });
      // idle bound 30 after the event at 1: the stream is aborted at 31.
      expectSubscriptions(stream$.subscriptions).toBe('^ 30ms !');
      expectSubscriptions(resub$.subscriptions).toBe('41ms ^!');
    });
  });

  it('polls when the resubscribe is refused', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = new A2AError({ kind: 'unsupported', code: -32004, message: 'resubscribe not supported' });
      const resub$ = cold<never>('-#', undefined, refused);
      const get1$ = cold('-(t|)', { t: task('T', 'working') });
      const get2$ = cold('-(t|)', { t: task('T', 'completed', { message: 'Polled.' }) });
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a---#', { a: ev.task('T', 'working') }, drop),
        resubscribe: () => resub$,
        getTask: callByCall(get1$, get2$),
      });
      // break at 5, resubscribe at 15 refused at 16, poll at once (answers 17), again 10 later (answers 28).
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)r 10ms p 11ms (che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "Polled."',
        h: 'text "Polled."',
        e: 'end completed "Polled."',
      });
      expectSubscriptions(get1$.subscriptions).toBe('16ms ^!');
      expectSubscriptions(get2$.subscriptions).toBe('27ms ^!');
    });
  });

  it('polls when the resubscribe attempts are exhausted', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const resub1$ = cold<never>('-#', undefined, drop);
      const resub2$ = cold<never>('-#', undefined, drop);
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----#', { a: ev.task('T', 'working') }, drop),
        resubscribe: callByCall(resub1$, resub2$),
        getTask: () => cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)-r 10ms R 20ms p(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        R: 'reconnecting #2 in 20',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "ok"',
        h: 'text "ok"',
        e: 'end completed "ok"',
      });
      expectSubscriptions(resub1$.subscriptions).toBe('16ms ^!');
      expectSubscriptions(resub2$.subscriptions).toBe('37ms ^!');
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
  });

  it('starts counting attempts afresh after a resubscribe that delivered events', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----#', { a: ev.task('T', 'working') }, drop),
        resubscribe: callByCall(
          cold('-sa#', { s: ev.task('T', 'working'), a: ev.artifact('T', 'A', 'Hi') }, drop),
          cold('-d|', { d: ev.status('T', 'completed') }),
        ),
      });
      // break at 6; resubscribe at 16: a snapshot at 17, a chunk at 18, a break at 19: attempt #1 again, not #2.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)-r 11ms hr 10ms (ce|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        h: 'text "Hi"',
        c: 'status completed',
        e: 'end completed "Hi"',
      });
    });
  });

  it('stops resubscribing once reconnect.maxElapsedMs has passed since the break, and polls', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----#', { a: ev.task('T', 'working') }, drop),
        resubscribe: () => cold<never>('-#', undefined, drop),
        getTask: () => cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) }),
      });
      const capped = { ...options, policy: { ...options.policy, idleTimeoutMs: 20, reconnect: { ...options.policy!.reconnect, maxAttempts: 10, maxElapsedMs: 25 } } };
      // break at 6; resubscribe at 16 fails at 17 (11 after the break); at 37 fails at 38: 32 > 25, so poll.
      expectObservable(runTurn(port, { text: 'hi' }, capped).pipe(labels)).toBe('s(tw)-r 10ms R 20ms p(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        R: 'reconnecting #2 in 20',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "ok"',
        h: 'text "ok"',
        e: 'end completed "ok"',
      });
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
  });

  it('a resubscribe with no first event within its bound is a failed attempt', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const silent$ = cold<never>('-');
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----#', { a: ev.task('T', 'working') }, drop),
        resubscribe: callByCall(silent$, cold('-d|', { d: ev.status('T', 'completed') })),
      });
      // break at 6; resubscribe at 16 hears nothing for 50, aborted at 66; next attempt at 86 completes at 87.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)-r 59ms R 20ms (ce|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        R: 'reconnecting #2 in 20',
        c: 'status completed',
        e: 'end completed ""',
      });
      expectSubscriptions(silent$.subscriptions).toBe('16ms ^ 49ms !');
    });
  });

  it('polls when the resubscribe is answered with an error of the server\'s own (a JSON-RPC code)', () => {
    marbles(({ cold, expectObservable }) => {
      const internal = new A2AError({ kind: 'protocol', code: -32603, message: 'Internal error' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a---#', { a: ev.task('T', 'working') }, drop),
        resubscribe: () => cold<never>('-#', undefined, internal),
        getTask: () => cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) }),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)r 10ms p(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "ok"',
        h: 'text "ok"',
        e: 'end completed "ok"',
      });
    });
  });

  it('a resubscribe that sends only its snapshot and closes is no progress: the attempts run out, then polling', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => cold('-a----#', { a: ev.task('T', 'working') }, drop),
        resubscribe: () => cold('-s|', { s: ev.task('T', 'working') }),
        getTask: () => cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) }),
      });
      // break at 6; snapshot-and-close at 16-18 (#1), again at 38-40 (#2): then poll at 40, answered at 41.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)-r 11ms R 21ms p(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        r: 'reconnecting #1 in 10',
        R: 'reconnecting #2 in 20',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "ok"',
        h: 'text "ok"',
        e: 'end completed "ok"',
      });
      calls = port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
  });
});
