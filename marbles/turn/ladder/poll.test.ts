import { describe, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task } from '../../../src/testing/index.js';
import { a2aError, labels, marbles, turn } from '../../helpers.js';

const working = { r: ev.task('T', 'working') };
const canceled = { x: task('T', 'canceled') };

describe('the poll rung', () => {
  it('ends with a stale timeout when the polled task never changes, and cancels it', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const getTask = cold(' -(t|)', { t: task('T', 'working') });
      const getTaskSubs = [
        '                    11ms ^!',
        '                    22ms ^!',
        '                    33ms ^!',
        '                    44ms ^!',
        '                    55ms ^!',
        '                    66ms ^!',
        '                    77ms ^!',
        '                    88ms ^!',
        '                    99ms ^!',
        '                    110ms ^!',
      ];
      const cancel = cold('  (x|)', canceled);
      const cancelSubs = '   112ms (^!)';
      const expected = '     s(twP) 106ms #';
      expectTurn(turn(agent({ card: blockingCard, send, getTask, cancel })), expected, [
        [send, sendSubs],
        [getTask, getTaskSubs],
        [cancel, cancelSubs],
      ], { card: blockingCard, error: a2aError({ kind: 'timeout', phase: 'stale' }) });
    });
  });

  it('a task that keeps changing is not stale', () => {
    marbles(({ cold, blockingCard, agent, expectSubscriptions, expectTurn }) => {
      // The polls answer "step 0" to "step 10" (labelled 0-9 and X), then done.
      const steps = [...'0123456789X'];
      const snapshots = [...steps.map((_, i) => task('T', 'working', { message: `step ${i}` })), task('T', 'completed', { message: 'ok' })];
      const polls = snapshots.map((t) => cold('-(t|)', { t }));
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const pollSubs = [
        '                    11ms ^!',
        '                    22ms ^!',
        '                    33ms ^!',
        '                    44ms ^!',
        '                    55ms ^!',
        '                    66ms ^!',
        '                    77ms ^!',
        '                    88ms ^!',
        '                    99ms ^!',
        '                    110ms ^!',
        '                    121ms ^!',
        '                    132ms ^!',
      ];
      const expected = '     s(twP)------0----------1----------2----------3----------4----------5----------6----------7----------8----------9----------X----------(ChE|)';
      const stepLabels = Object.fromEntries(steps.map((key, i) => [key, `status working "step ${i}"`]));
      expectTurn(turn(agent({ card: blockingCard, send, getTask: polls })), expected, [
        [send, sendSubs],
      ], { card: blockingCard, values: { ...labels, ...stepLabels } });
      polls.forEach((poll, i) => expectSubscriptions(poll.subscriptions).toBe(pollSubs[i]!));
    });
  });

  it('tries a failed GetTask again, and errors when the failures in a row exceed poll.maxErrors', () => {
    const down = new A2AError({ kind: 'network', message: 'fetch failed' });
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const getTask = cold<never>('-#', undefined, down);
      const getTaskSubs = [
        '                    11ms ^!',
        '                    22ms ^!',
      ];
      const cancel = cold('  (x|)', canceled);
      const cancelSubs = '   23ms (^!)';
      const expected = '     s(twP) 17ms #';
      expectTurn(turn(agent({ card: blockingCard, send, getTask, cancel })), expected, [
        [send, sendSubs],
        [getTask, getTaskSubs],
        [cancel, cancelSubs],
      ], { card: blockingCard, error: down });
    });
  });

  it('bounds each GetTask', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const getTask = cold<never>('-');
      const getTaskSubs = [
        '                    11ms ^ 19ms !',
        '                    41ms ^ 19ms !',
      ];
      const cancel = cold('  (x|)', canceled);
      const cancelSubs = '   61ms (^!)';
      const expected = '     s(twP) 55ms #';
      expectTurn(turn(agent({ card: blockingCard, send, getTask, cancel })), expected, [
        [send, sendSubs],
        [getTask, getTaskSubs],
        [cancel, cancelSubs],
      ], { card: blockingCard, error: a2aError({ kind: 'timeout', phase: 'poll-request' }) });
    });
  });

  it('does not try again after an error that is not retryable; a task the agent does not know is not cancelled', () => {
    const gone = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const getTask = cold<never>('     -#', undefined, gone);
      const getTaskSubs = '  -----------^!';
      const cancel = cold('              (x|)', canceled);
      const expected = '     s(twP)------#';
      expectTurn(turn(agent({ card: blockingCard, send, getTask, cancel })), expected, [
        [send, sendSubs],
        [getTask, getTaskSubs],
        [cancel, []],
      ], { card: blockingCard, error: gone });
    });
  });
});
