import { describe, expect, it } from 'vitest';
import { A2AError } from '../src/errors.js';
import { ev, task } from '../src/testing/index.js';
import { a2aError, labels, marbles, turn } from './helpers.js';

const unsupported = new A2AError({ kind: 'unsupported', code: -32004, message: 'streaming is not supported' });
const refused = new A2AError({ kind: 'unsupported', message: 'no' });

describe('the blocking rung', () => {
  it('sends blocking when the card does not stream, and renders the result once', () => {
    const calls = marbles(({ cold, blockingCard, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const send = cold('    ---(r|)', { r: ev.task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }) });
      const sendSubs = '     ^--!';
      const expected = '     s--(thcE|)';
      const port = agent({ card: blockingCard, send });
      expectObservable(turn(port)).toBe(expected, labels);
      cardReadOnce(blockingCard);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'send']);
  });

  it('falls back to one blocking send when the stream is refused before any event', () => {
    marbles(({ cold, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const stream = cold<never>('-#', undefined, unsupported);
      const streamSubs = '          ^!';
      const send = cold('            --(r|)', { r: ev.message('ok') });
      const sendSubs = '            -^-!';
      const expected = '            sf-(hE|)';
      expectObservable(turn(agent({ stream, send }))).toBe(expected, labels);
      cardReadOnce();
      expectSubscriptions(stream.subscriptions).toBe(streamSubs);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
    });
  });

  it('does not fall back twice: a refused blocking send after a refused stream is the error', () => {
    const calls = marbles(({ cold, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const stream = cold<never>('#', undefined, refused);
      const streamSubs = '          (^!)';
      const send = cold<never>('  #', undefined, refused);
      const sendSubs = '            (^!)';
      const expected = '            (sf#)';
      const port = agent({ stream, send });
      expectObservable(turn(port)).toBe(expected, labels, refused);
      cardReadOnce();
      expectSubscriptions(stream.subscriptions).toBe(streamSubs);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'send']);
  });

  it('does not fall back when the stream is refused after an event', () => {
    const calls = marbles(({ cold, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const stream = cold('   -a---#', { a: ev.task('T', 'working') }, refused);
      const streamSubs = '    ^----!';
      const getTask = cold('       -(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const getTaskSubs = '   -----^!';
      const expected = '      s(tw)p(ChE|)';
      const port = agent({ stream, getTask });
      // A refusal after the task is known is a refused reconnect: poll, never re-send.
      expectObservable(turn(port)).toBe(expected, labels);
      cardReadOnce();
      expectSubscriptions(stream.subscriptions).toBe(streamSubs);
      expectSubscriptions(getTask.subscriptions).toBe(getTaskSubs);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'getTask']);
  });

  it('finishes a blocking send that returned a working task by polling', () => {
    marbles(({ cold, blockingCard, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const send = cold('    -(r|)', { r: ev.task('T', 'working') });
      const sendSubs = '     ^!';
      const get1 = cold('    -(t|)', { t: task('T', 'working') });
      const get1Subs = '     11ms ^!';
      const get2 = cold('    -(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const get2Subs = '     22ms ^!';
      const expected = '     s(twP) 17ms (ChE|)';
      expectObservable(turn(agent({ card: blockingCard, send, getTask: [get1, get2] }))).toBe(expected, labels);
      cardReadOnce(blockingCard);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
      expectSubscriptions(get1.subscriptions).toBe(get1Subs);
      expectSubscriptions(get2.subscriptions).toBe(get2Subs);
    });
  });

  it('bounds the blocking send (an unanswered send is read on for cancelTimeoutMs, in case it names a task to cancel)', () => {
    marbles(({ cold, blockingCard, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const send = cold<never>('-');
      const sendSubs = '          ^ 219ms !';
      const expected = '          s 199ms #';
      expectObservable(turn(agent({ card: blockingCard, send }))).toBe(expected, labels, a2aError({ kind: 'timeout', phase: 'send' }));
      cardReadOnce(blockingCard);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
    });
  });

  it('ends input-required and auth-required blocking results as outcomes', () => {
    marbles(({ cold, blockingCard, agent, cardReadOnce, expectObservable, expectSubscriptions }) => {
      const send = cold('    (r|)', { r: ev.task('T', 'input-required', { message: 'Which city?' }) });
      const sendSubs = '     (^!)';
      const expected = '     (stiqI|)';
      expectObservable(turn(agent({ card: blockingCard, send }))).toBe(expected, labels);
      cardReadOnce(blockingCard);
      expectSubscriptions(send.subscriptions).toBe(sendSubs);
    });
  });
});
