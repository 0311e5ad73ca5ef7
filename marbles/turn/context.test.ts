import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import { ev, task, type FakePortCall } from '../../src/testing/index.js';
import { labels, marbles, turn } from '../helpers.js';

const refused = new A2AError({ kind: 'protocol', code: -32602, message: "the agent answered with an error: Invalid params: unknown contextId 'C'" });
const otherParams = new A2AError({ kind: 'protocol', code: -32602, message: 'the agent answered with an error: Invalid params: parts is empty' });
const sentContextIds = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.contextId ?? null] : []));
const L = { ...labels, x: 'context C refused (protocol)' };

describe('a contextId the agent refuses', () => {
  it('refused before any event: sent once more without a contextId, and the agent answers', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream1 = cold<never>('-#', undefined, refused);
      const stream1Subs = '        ^!';
      const stream2 = cold('          -m|', { m: ev.message('ok') });
      const stream2Subs = '        -^!';
      const expected = '           sx(hE|)';
      const port = agent({ stream: [stream1, stream2] });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [[stream1, stream1Subs], [stream2, stream2Subs]], { values: L });
      return port.calls;
    });
    expect(sentContextIds(calls)).toEqual(['C', null]);
  });

  it('refused again without one: the second refusal is the error, nothing sent a third time', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, refused);
      const streamSubs = ['         ^!', '         -^!'];
      const expected = '            sx#';
      const port = agent({ stream });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [[stream, streamSubs]], { values: L, error: refused });
      return port.calls;
    });
    expect(sentContextIds(calls)).toEqual(['C', null]);
  });

  it('the blocking rung does the same', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send1 = cold<never>('-#', undefined, refused);
      const send1Subs = '        ^!';
      const send2 = cold('        -(m|)', { m: ev.message('ok') });
      const send2Subs = '        -^!';
      const expected = '         sx(hE|)';
      const port = agent({ card: blockingCard, send: [send1, send2] });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [
        [send1, send1Subs],
        [send2, send2Subs],
      ], { card: blockingCard, values: L });
      return port.calls;
    });
    expect(sentContextIds(calls)).toEqual(['C', null]);
  });

  it('an invalid-params error about something else refuses the stream, not the context: one blocking send with the contextId', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, otherParams);
      const streamSubs = '        ^!';
      const send = cold<never>('    -#', undefined, otherParams);
      const sendSubs = '          -^!';
      const expected = '          sf#';
      const port = agent({ stream, send });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [
        [stream, streamSubs],
        [send, sendSubs],
      ], { values: { ...L, f: 'fallback to send (protocol)' }, error: otherParams });
      return port.calls;
    });
    expect(sentContextIds(calls)).toEqual(['C', 'C']);
  });

  it('a refusal after the agent answered is no refusal of the context: the message is never sent twice', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('       -t---#', { t: ev.task('T', 'working') }, refused);
      const streamSubs = '        ^----!';
      // The ladder's usual answer to a lasting error once the task is known: it asks for the task's state.
      const getTask = cold('           -(g|)', { g: task('T', 'completed', { message: 'ok' }) });
      const expected = '          s(tw)p(ChE|)';
      const port = agent({ stream, getTask });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [[stream, streamSubs]], { values: { ...L, t: 'task T' } });
      return port.calls;
    });
    expect(calls.filter((c) => 'message' in c)).toHaveLength(1);
  });
});
