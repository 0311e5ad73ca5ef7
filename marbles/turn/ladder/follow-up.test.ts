import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { labels, marbles, streamedTurns, turn } from '../../helpers.js';

const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const terminal = new A2AError({ kind: 'unsupported', code: -32004, message: 'task is in a terminal state' });
const followUp = { text: 'Paris', contextId: 'C', taskId: 'T0' };
const sentTaskIds = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []));

describe('follow-ups to an interrupted task', () => {
  it('a follow-up whose task is gone is sent once more with the contextId only', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream1 = cold<never>('-#', undefined, notFound);
      const stream1Subs = '        ^!';
      const stream2 = cold('          -m|', { m: ev.message('ok') });
      const stream2Subs = '        -^!';
      const expected = '           sg(hE|)';
      const port = agent({ stream: [stream1, stream2] });
      expectTurn(turn(port, followUp), expected, [[stream1, stream1Subs], [stream2, stream2Subs]]);
      return port.calls;
    });
    expect(sentTaskIds(calls)).toEqual(['T0', null]);
    expect(calls.filter((c) => c.method === 'stream').map((c) => ('message' in c ? c.message.contextId : ''))).toEqual(['C', 'C']);
  });

  it('-32004 on a follow-up means the task finished: once more without it, then the usual stream fallback', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, terminal);
      const streamSubs = [
        '                         ^!',
        '                         -^!',
      ];
      const send = cold('           -(m|)', { m: ev.message('ok') });
      const sendSubs = '          --^!';
      const expected = '          sGf(hE|)';
      const port = agent({ stream, send });
      expectTurn(turn(port, followUp), expected, [[stream, streamSubs], [send, sendSubs]]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'stream', 'send']);
    expect(sentTaskIds(calls)).toEqual(['T0', null, null]);
  });

  it('the blocking rung does the same', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send1 = cold<never>('-#', undefined, notFound);
      const send1Subs = '        ^!';
      const send2 = cold('        -(m|)', { m: ev.message('ok') });
      const send2Subs = '        -^!';
      const expected = '         sg(hE|)';
      const port = agent({ card: blockingCard, send: [send1, send2] });
      expectTurn(turn(port, followUp), expected, [[send1, send1Subs], [send2, send2Subs]], { card: blockingCard });
      return port.calls;
    });
    expect(sentTaskIds(calls)).toEqual(['T0', null]);
  });

  it('without a task id, TaskNotFound is the error: nothing is sent twice', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, notFound);
      const streamSubs = '        ^!';
      const expected = '          s#';
      const port = agent({ stream });
      expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [[stream, streamSubs]], { error: notFound });
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('a gone task on the blocking rung, then an early answer: one polling note, one poller', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send1 = cold<never>('-#', undefined, notFound);
      const send1Subs = '        ^!';
      const send2 = cold('        -(r|)', { r: ev.task('T1', 'working') });
      const send2Subs = '        -^!';
      const getTask = cold('                 -(t|)', { t: task('T1', 'completed', { message: 'ok' }) });
      const getTaskSubs = '      ------------^!';
      const expected = '         sg(TwP)------(ChE|)';
      expectTurn(turn(agent({ card: blockingCard, send: [send1, send2], getTask }), followUp), expected, [
        [send1, send1Subs],
        [send2, send2Subs],
        [getTask, getTaskSubs],
      ], { card: blockingCard, values: { ...labels, T: 'task T1' } });
    });
  });

  // A follow-up to T0 whose stream opens with the task still input-required (`o`), then `w` working,
  // `a` the reply, `c` completed, or `i` input-required again; only the card and the stream are called.
  const reopened = [
    {
      title: 'a follow-up stream that opens with the task still input-required (the SDK 1.x shape) reads on to the answer',
      stream: '    -o----w-a-c|',
      streamSubs: '^---------!',
      expected: '  s(ti)-w-h-(cE|)',
    },
    {
      title: 'a stream that opens with an input-required snapshot and then closes ends input-required: no break, nothing resubscribed',
      stream: '    -o---|',
      streamSubs: '^----!',
      expected: '  s(ti)(qI|)',
    },
    {
      title: 'a later input-required event still ends the stream at once (the agent asks again)',
      stream: '    -o----w-i-',
      streamSubs: '^-------!',
      expected: '  s(ti)-w-(iqI|)',
    },
  ];
  streamedTurns(reopened, {
    events: {
      o: ev.task('T0', 'input-required', { message: 'Which city?' }),
      w: ev.status('T0', 'working'),
      a: ev.artifact('T0', 'out', 'ok', { lastChunk: true }),
      c: ev.status('T0', 'completed'),
      i: ev.status('T0', 'input-required', 'Which city?'),
    },
    request: followUp,
    values: { ...labels, t: 'task T0' },
    called: ['card', 'stream'],
  });

  it('a fresh message (no task id) whose stream opens with the task input-required: that is the answer, the stream ends there', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('-o------', { o: ev.task('T', 'input-required', { message: 'Which city?' }) });
      expectObservable(turn(agent({ stream }), { text: 'hi', contextId: 'C' })).toBe('s(tiqI|)', { ...labels, t: 'task T' });
      expectSubscriptions(stream.subscriptions).toBe('^!');
    });
  });


});
