import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { createFakePort, ev, task, testCard, type FakePortCall } from '../src/testing/index.js';
import { runTurn } from '../src/turn/turn.js';
import { a2aError, labels, marbles, options } from './helpers.js';

describe('the blocking rung', () => {
  it('sends blocking when the card does not stream, and renders the result once', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const send$ = cold('---(r|)', { r: ev.task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'Done.' }] }] }) });
      const port = createFakePort({ card: () => cold('(c|)', { c: testCard({ streaming: false }) }), send: () => send$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s--(thue|)', {
        s: 'start',
        t: 'task T',
        h: 'text "Done."',
        u: 'status completed',
        e: 'end completed "Done."',
      });
      expectSubscriptions(send$.subscriptions).toBe('^--!');
      calls = port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'send']);
  });

  it('falls back to one blocking send when the stream is refused before any event', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = new A2AError({ kind: 'unsupported', code: -32004, message: 'streaming is not supported' });
      const stream$ = cold<never>('-#', undefined, refused);
      const send$ = cold('--(r|)', { r: ev.message('Blocking answer.') });
      const port = createFakePort({ card: () => cold('(c|)', { c: testCard() }), stream: () => stream$, send: () => send$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('sf-(te|)', {
        s: 'start',
        f: 'fallback to send (unsupported)',
        t: 'text "Blocking answer."',
        e: 'end completed "Blocking answer."',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^!');
      expectSubscriptions(send$.subscriptions).toBe('-^-!');
    });
  });

  it('does not fall back twice: a refused blocking send after a refused stream is the error', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const refused = new A2AError({ kind: 'unsupported', message: 'no' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard() }),
        stream: () => cold<never>('#', undefined, refused),
        send: () => cold<never>('#', undefined, refused),
      });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('(sf#)', { s: 'start', f: 'fallback to send (unsupported)' }, refused);
      calls = port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'send']);
  });

  it('does not fall back when the stream is refused after an event', () => {
    let calls: FakePortCall[] = [];
    marbles(({ cold, expectObservable }) => {
      const refused = new A2AError({ kind: 'unsupported', message: 'no' });
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard() }),
        stream: () => cold('-a---#', { a: ev.task('T', 'working') }, refused),
        getTask: () => cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) }),
      });
      // A refusal after the task is known is a refused reconnect: poll, never re-send.
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tw)p(che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        p: 'polling (resubscribe-failed)',
        c: 'status completed "ok"',
        h: 'text "ok"',
        e: 'end completed "ok"',
      });
      calls = port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'getTask']);
  });

  it('finishes a blocking send that returned a working task by polling', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const send$ = cold('-(r|)', { r: ev.task('T', 'working') });
      const get1$ = cold('-(t|)', { t: task('T', 'working') });
      const get2$ = cold('-(t|)', { t: task('T', 'completed', { message: 'Finally.' }) });
      let gets = 0;
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard({ streaming: false }) }),
        send: () => send$,
        getTask: () => (++gets === 1 ? get1$ : get2$),
      });
      // send answers at 1; first poll after 10 (answers at 12), the next 10 after that (answers at 23).
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(twp) 17ms (che|)', {
        s: 'start',
        t: 'task T',
        w: 'status working',
        p: 'polling (send-returned-early)',
        c: 'status completed "Finally."',
        h: 'text "Finally."',
        e: 'end completed "Finally."',
      });
      expectSubscriptions(get1$.subscriptions).toBe('- 10ms ^!');
      expectSubscriptions(get2$.subscriptions).toBe('- 10ms - 10ms ^!');
    });
  });

  it('bounds the blocking send', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({ card: () => cold('(c|)', { c: testCard({ streaming: false }) }), send: () => cold<never>('-') });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s 199ms #', { s: 'start' }, a2aError({ kind: 'timeout', phase: 'send' }));
    });
  });

  it('ends input-required and auth-required blocking results as outcomes', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({
        card: () => cold('(c|)', { c: testCard({ streaming: false }) }),
        send: () => cold('(r|)', { r: ev.task('T', 'input-required', { message: 'Which city?' }) }),
      });
      expectObservable(runTurn(port, { text: 'book' }, options).pipe(labels)).toBe('(stuhe|)', {
        s: 'start',
        t: 'task T',
        u: 'status input-required "Which city?"',
        h: 'text "Which city?"',
        e: 'end input-required "Which city?"',
      });
    });
  });
});
