import { describe, expect, it } from 'vitest';
import type { SendResult, Task } from '../../../src/port/types.js';
import { ev, task } from '../../../src/testing/index.js';
import { labels, marbles, turn } from '../../helpers.js';

// A2A 1.1 (draft): polling an agent that sends generations is long-polling — each GetTask held until
// the task moves, the next one at once — and an agent that answers at once is polled at the usual pace.

const at = (t: Task, generation: number): Task => ({ ...t, generation });
const sent = (generation: number): SendResult => ({ kind: 'task', task: at(task('T', 'working'), generation) });

describe('the poll rung, long-polling (A2A 1.1)', () => {
  it('asks with the last generation seen, and asks again at once when the agent answered a later one', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('-(r|)', { r: sent(2) });
      const getTask = [cold('---(a|)', { a: at(task('T', 'working', { message: 'half' }), 3) }), cold('--(b|)', { b: at(task('T', 'completed', { message: 'ok' }), 4) })];
      const port = agent({ card: blockingCard, send, getTask });
      // Sent at 0, answered at 1; the first GetTask after one poll interval (10), held 3; the next at once, held 2.
      expectTurn(turn(port), 's(twP)--------H-(ChE|)', [[send, '^!']], { card: blockingCard, values: { ...labels, H: 'status working "half"' } });
      return port.calls;
    });
    expect(calls.filter((call) => call.method === 'getTask')).toEqual([
      { method: 'getTask', taskId: 'T', wait: { currentGeneration: 2 } },
      { method: 'getTask', taskId: 'T', wait: { currentGeneration: 3 } },
    ]);
  });

  it('an agent that answers a long-poll at once with the same generation is asked again after the backoff, not in a loop', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('-(r|)', { r: sent(2) });
      const same = cold('(a|)', { a: at(task('T', 'working'), 2) });
      const done = cold('(b|)', { b: at(task('T', 'completed', { message: 'ok' }), 3) });
      const port = agent({ card: blockingCard, send, getTask: [same, same, done] });
      // Polls at 11, 21, 31 (the 10 ms interval each), as a 1.0 agent's would be.
      expectTurn(turn(port), 's(twP) 25ms (ChE|)', [[send, '^!']], { card: blockingCard });
      return port.calls;
    });
    expect(calls.filter((call) => call.method === 'getTask')).toHaveLength(3);
  });

  it('an agent that sends no generation is polled as ever: no wait asked', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('-(r|)', { r: ev.task('T', 'working') });
      const done = cold('(b|)', { b: task('T', 'completed', { message: 'ok' }) });
      const port = agent({ card: blockingCard, send, getTask: done });
      expectTurn(turn(port), 's(twP) 5ms (ChE|)', [[send, '^!']], { card: blockingCard });
      return port.calls;
    });
    expect(calls.filter((call) => call.method === 'getTask')).toEqual([{ method: 'getTask', taskId: 'T' }]);
  });
});
