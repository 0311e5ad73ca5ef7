import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task } from '../../../src/testing/index.js';
import { a2aError, labels, marbles, turn, withPolicy } from '../../helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('the streaming rung', () => {
  it('streams a task to COMPLETED and ends with the reply once', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const chunk = ev.artifact('T', 'A', 'ok', { lastChunk: true });
      const stream = cold('  -a----b-c-d|', { a: ev.task('T'), b: ev.status('T', 'working'), c: chunk, d: ev.status('T', 'completed') });
      const streamSubs = '   ^---------!';
      const expected = '     s(tu)-w-h-(cE|)';
      expectTurn(turn(agent({ stream }), { text: 'hello', contextId: 'C' }), expected, [[stream, streamSubs]]);
    });
  });

  it('sends the text and the thread ids, and nothing else', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  (m|)', { m: ev.message('ok') });
      const streamSubs = '   (^!)';
      const expected = '     (shE|)';
      const port = agent({ stream });
      expectTurn(turn(port, { text: 'hello', contextId: 'C', taskId: 'T0' }), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(calls).toEqual([
      { method: 'card' },
      { method: 'stream', message: { text: 'hello', contextId: 'C', taskId: 'T0', messageId: expect.stringMatching(UUID) } },
    ]);
  });

  it('ends a single-message reply with that message, closing the stream', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  --m-----|', { m: ev.message('ok') });
      const streamSubs = '   ^-!';
      const expected = '     s-(hE|)';
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]]);
    });
  });

  it('errors with the card failure and never sends', () => {
    const failure = new A2AError({ kind: 'card', message: 'no card' });
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold<never>(' --#', undefined, failure);
      const cardSubs = '      ^-!';
      const expected = '      s-#';
      const port = agent({ card });
      expectObservable(turn(port)).toBe(expected, labels, failure);
      expectSubscriptions(card.subscriptions).toBe(cardSubs);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card']);
  });

  it('bounds the card fetch', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const card = cold<never>(' -');
      const cardSubs = '      ^ 99ms !';
      const expected = '      s 99ms #';
      expectObservable(turn(agent({ card }))).toBe(expected, labels, a2aError({ kind: 'timeout', phase: 'card' }));
      expectSubscriptions(card.subscriptions).toBe(cardSubs);
    });
  });

  it('refuses empty text before any I/O', () => {
    marbles(({ card, agent, expectObservable, expectSubscriptions }) => {
      expectObservable(turn(agent(), { text: '  ' })).toBe('(s#)', labels, a2aError({ kind: 'input' }));
      expectSubscriptions(card.subscriptions).toBe([]);
    });
  });
});

describe('events of another task', () => {
  it('are dropped: they neither change the reply nor end the turn', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const ours = { a: ev.task('T'), b: ev.artifact('T', 'A', 'Hello'), c: ev.artifact('T', 'A', ' world', { append: true, lastChunk: true }) };
      const theirs = { x: ev.artifact('OTHER', 'A', ' INJECTED', { append: true }), y: ev.status('OTHER', 'completed', 'INJECTED') };
      const stream = cold('  -a----b-x-y-c-d|', { ...ours, ...theirs, d: ev.status('T', 'completed') });
      const streamSubs = '   ^-------------!';
      const expected = '     s(tu)-H-----W-(cF|)';
      expectTurn(turn(agent({ stream })), expected, [
        [stream, streamSubs],
      ], { values: { ...labels, H: 'text "Hello"', W: 'text " world"', F: 'end completed "Hello world"' } });
    });
  });
});

describe('a reply past maxReplyChars', () => {
  it('ends the turn with a protocol error and cancels the task', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const chunks = { b: ev.artifact('T', 'A', '12345'), c: ev.artifact('T', 'A', '67890', { append: true }) };
      const stream = cold('  -a----b-c', { a: ev.task('T', 'working'), ...chunks });
      const streamSubs = '   ^-------!';
      const cancel = cold('          (x|)', { x: task('T', 'canceled') });
      const cancelSubs = '   --------(^!)';
      const expected = '     s(tw)-H-#';
      const tooLong = a2aError({ kind: 'protocol', message: "the agent's reply is longer than 8 characters" });
      expectTurn(turn(agent({ stream, cancel }), { text: 'hi' }, withPolicy({ maxReplyChars: 8 })), expected, [
        [stream, streamSubs],
        [cancel, cancelSubs],
      ], { values: { ...labels, H: 'text "12345"' }, error: tooLong });
    });
  });
});
