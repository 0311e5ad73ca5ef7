import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { agentMessage, ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { labels, marbles, turn } from '../../helpers.js';

/** The task as GetTask with history gives it: the answer only in its history, after the user's message. */
const withHistory = { ...task('T', 'completed'), history: [agentMessage('hi', 'user'), agentMessage('ok')] };
const L = { ...labels, t: 'task T' };
const historyReads = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'getTask');

describe('a completed task whose answer is only in its history', () => {
  it('nothing shown at the end: one GetTask with history, and the agent\'s last message is the reply', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('      -t---c|', { t: ev.task('T', 'working'), c: ev.status('T', 'completed') });
      // The final status shows nothing: the stream is read to its end before the GetTask.
      const streamSubs = '     ^-----!';
      const getTask = cold('          -(g|)', { g: withHistory });
      const getTaskSubs = '     ------^!';
      const expected = '        s(tw)c-(hE|)';
      const port = agent({ stream, getTask });
      expectTurn(turn(port), expected, [[stream, streamSubs], [getTask, getTaskSubs]], { values: L });
      return port.calls;
    });
    expect(historyReads(calls)).toEqual([{ method: 'getTask', taskId: 'T', historyLength: 10 }]);
  });

  it('the blocking rung does the same', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('        -(r|)', { r: ev.task('T', 'completed') });
      const getTask = cold('       ----(g|)', { g: withHistory });
      const getTaskSubs = '     -^---!';
      const expected = '        s(tc)(hE|)';
      const port = agent({ card: blockingCard, send, getTask });
      expectTurn(turn(port), expected, [[getTask, getTaskSubs]], { card: blockingCard, values: L });
      return port.calls;
    });
    expect(historyReads(calls)).toHaveLength(1);
  });

  it('a reply shown already: no GetTask', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-t---C|', { t: ev.task('T', 'working'), C: ev.status('T', 'completed', 'ok') });
      const port = agent({ stream });
      expectObservable(turn(port)).toBe('s(tw)(ChE|)', L);
      return port.calls;
    });
    expect(historyReads(calls)).toEqual([]);
  });

  it('an interrupted end is no completed one: no GetTask', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-t---i|', { t: ev.task('T', 'working'), i: ev.status('T', 'input-required') });
      const port = agent({ stream });
      expectObservable(turn(port)).toBe('s(tw)j(J|)', { ...L, j: 'status input-required', J: 'end input-required ""' });
      return port.calls;
    });
    expect(historyReads(calls)).toEqual([]);
  });

  it('a failed read: completed, no reply, no error, the end saying the reply was not read; an empty read: a plain empty end', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-t---c|', { t: ev.task('T', 'working'), c: ev.status('T', 'completed') });
      const failed = cold<never>('-#', undefined, new A2AError({ kind: 'http', status: 503, retryable: true, message: 'busy' }));
      expectObservable(turn(agent({ stream, getTask: failed }))).toBe('s(tw)c-(U|)', L);
      const bare = cold('-(g|)', { g: task('T', 'completed') });
      expectObservable(turn(agent({ stream, getTask: bare }))).toBe('s(tw)c-(e|)', L);
    });
  });
});
