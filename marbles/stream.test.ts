import { describe, it } from 'vitest';
import { expect } from 'vitest';
import { A2AError } from '../src/errors.js';
import { runTurn } from '../src/turn/turn.js';
import { createFakePort, ev, testCard } from '../src/testing/index.js';
import { a2aError, labels, marbles, options } from './helpers.js';

const card = testCard();

describe('the streaming rung', () => {
  it('streams a task to COMPLETED and ends with the reply once', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const card$ = cold('(c|)', { c: card });
      const stream$ = cold('-a----b-c-d|', {
        a: ev.task('T'),
        b: ev.status('T', 'working'),
        c: ev.artifact('T', 'A', 'Hi', { lastChunk: true }),
        d: ev.status('T', 'completed'),
      });
      const port = createFakePort({ card: () => card$, stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'hello', contextId: 'C' }, options).pipe(labels)).toBe('s(tu)-w-h-(ce|)', {
        s: 'start',
        t: 'task T',
        u: 'status submitted',
        w: 'status working',
        h: 'text "Hi"',
        c: 'status completed',
        e: 'end completed "Hi"',
      });
      expectSubscriptions(card$.subscriptions).toBe('(^!)');
      expectSubscriptions(stream$.subscriptions).toBe('^---------!');
    });
  });

  it('sends the text and the thread ids, and nothing else', () => {
    let calls: unknown[] = [];
    marbles(({ cold, expectObservable }) => {
      const scripted = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => cold('(m|)', { m: ev.message('ok') }) });
      calls = scripted.calls;
      expectObservable(runTurn(scripted, { text: 'hello', contextId: 'C', taskId: 'T0' }, options).pipe(labels)).toBe('(ste|)', {
        s: 'start',
        t: 'text "ok"',
        e: 'end completed "ok"',
      });
    });
    expect(calls).toEqual([{ method: 'card' }, { method: 'stream', message: { text: 'hello', contextId: 'C', taskId: 'T0' } }]);
  });

  it('ends a single-message reply with that message, closing the stream', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const stream$ = cold('--m-----|', { m: ev.message('Hello World') });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s-(te|)', {
        s: 'start',
        t: 'text "Hello World"',
        e: 'end completed "Hello World"',
      });
      expectSubscriptions(stream$.subscriptions).toBe('^-!');
    });
  });

  it('errors with the card failure and never sends', () => {
    marbles(({ cold, expectObservable }) => {
      const failure = new A2AError({ kind: 'card', message: 'no card' });
      const port = createFakePort({ card: () => cold<never>('--#', undefined, failure) });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s-#', { s: 'start' }, failure);
      expect(port.calls.map((c) => c.method)).toEqual([]);
    });
  });

  it('bounds the card fetch', () => {
    marbles(({ cold, expectObservable }) => {
      const port = createFakePort({ card: () => cold<never>('-') });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe(
        's 99ms #',
        { s: 'start' },
        a2aError({ kind: 'timeout', phase: 'card' }),
      );
    });
  });

  it('refuses empty text before any I/O', () => {
    marbles(({ expectObservable }) => {
      const port = createFakePort({});
      expectObservable(runTurn(port, { text: '  ' }, options).pipe(labels)).toBe('(s#)', { s: 'start' }, a2aError({ kind: 'input' }));
    });
  });
});

describe('events of another task', () => {
  it('are dropped: they neither change the reply nor end the turn', () => {
    marbles(({ cold, expectObservable }) => {
      const stream$ = cold('-a----b-x-y-c-d|', {
        a: ev.task('T'),
        b: ev.artifact('T', 'A', 'Hello', { append: false }),
        x: ev.artifact('OTHER', 'A', ' INJECTED', { append: true }),
        y: ev.status('OTHER', 'completed', 'INJECTED'),
        c: ev.artifact('T', 'A', ' world', { append: true, lastChunk: true }),
        d: ev.status('T', 'completed'),
      });
      const port = createFakePort({ card: () => cold('(c|)', { c: card }), stream: () => stream$ });
      expectObservable(runTurn(port, { text: 'hi' }, options).pipe(labels)).toBe('s(tu)-h-----w-(ce|)', {
        s: 'start',
        t: 'task T',
        u: 'status submitted',
        h: 'text "Hello"',
        w: 'text " world"',
        c: 'status completed',
        e: 'end completed "Hello world"',
      });
    });
  });
});

describe('a reply past maxReplyChars', () => {
  it('ends the turn with a protocol error and cancels the task', () => {
    let cancels = 0;
    marbles(({ cold, expectObservable }) => {
      const stream$ = cold('-a----b-c', {
        a: ev.task('T', 'working'),
        b: ev.artifact('T', 'A', '12345', { append: false }),
        c: ev.artifact('T', 'A', '67890', { append: true }),
      });
      const port = createFakePort({
        card: () => cold('(c|)', { c: card }),
        stream: () => stream$,
        cancel: () => {
          cancels++;
          return cold('(x|)', { x: { id: 'T', status: { state: 'canceled' as const }, artifacts: [] } });
        },
      });
      const small = { ...options, policy: { ...options.policy, maxReplyChars: 8 } };
      expectObservable(runTurn(port, { text: 'hi' }, small).pipe(labels)).toBe(
        's(tw)-h-#',
        { s: 'start', t: 'task T', w: 'status working', h: 'text "12345"' },
        a2aError({ kind: 'protocol', message: "the agent's reply is longer than 8 characters" }),
      );
    });
    expect(cancels).toBe(1);
  });
});
