import { describe, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task } from '../../../src/testing/index.js';
import { a2aError, labels, marbles, turn } from '../../helpers.js';

const working = { r: ev.task('T', 'working') };
const canceled = { x: task('T', 'canceled') };

/** When GetTask is called, poll after poll: 11 frames apart (each answer takes 1, the next poll waits 10), up to 12 polls. */
const pollsEvery11ms = [
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

const down = new A2AError({ kind: 'network', message: 'fetch failed' });
const gone = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });

/**
 * A blocking send answered `working`, then polled: each case draws GetTask's answer (`t` a working
 * task, `#` its `fails`), when it is called, when CancelTask is, and how the turn ends.
 */
interface PollCase {
  title: string;
  getTask: string;
  fails?: unknown;
  getTaskSubs: string | string[];
  cancelSubs: string | string[];
  expected: string;
  error: unknown;
}

const pollCases: PollCase[] = [
  {
    title: 'ends with a stale timeout when the polled task never changes, and cancels it',
    getTask: '         -(t|)',
    getTaskSubs: pollsEvery11ms.slice(0, 10),
    cancelSubs: '        112ms (^!)',
    expected: '          s(twP) 106ms #',
    error: a2aError({ kind: 'timeout', phase: 'stale' }),
  },
  {
    title: 'tries a failed GetTask again, and errors when the failures in a row exceed poll.maxErrors',
    getTask: '         -#',
    fails: down,
    getTaskSubs: [
      '                    11ms ^!',
      '                    22ms ^!',
    ],
    cancelSubs: '        23ms (^!)',
    expected: '          s(twP) 17ms #',
    error: down,
  },
  {
    title: 'bounds each GetTask',
    getTask: '         -',
    getTaskSubs: [
      '                    11ms ^ 19ms !',
      '                    41ms ^ 19ms !',
    ],
    cancelSubs: '        61ms (^!)',
    expected: '          s(twP) 55ms #',
    error: a2aError({ kind: 'timeout', phase: 'poll-request' }),
  },
  {
    title: 'does not try again after an error that is not retryable; a task the agent does not know is not cancelled',
    getTask: '              -#',
    fails: gone,
    getTaskSubs: '       -----------^!',
    cancelSubs: [],
    expected: '          s(twP)------#',
    error: gone,
  },
];

describe('the poll rung', () => {
  for (const { title, getTask: getTaskDiagram, fails, getTaskSubs, cancelSubs, expected, error } of pollCases) {
    it(title, () => {
      marbles(({ cold, blockingCard, agent, expectTurn }) => {
        const send = cold('    -(r|)', working);
        const sendSubs = '     ^!';
        const getTask = cold(getTaskDiagram, { t: task('T', 'working') }, fails);
        const cancel = cold('  (x|)', canceled);
        expectTurn(turn(agent({ card: blockingCard, send, getTask, cancel })), expected, [
          [send, sendSubs],
          [getTask, getTaskSubs],
          [cancel, cancelSubs],
        ], { card: blockingCard, error });
      });
    });
  }

  it('a task that keeps changing is not stale', () => {
    marbles(({ cold, blockingCard, agent, expectSubscriptions, expectTurn }) => {
      // The polls answer "step 0" to "step 10" (labelled 0-9 and X), then done.
      const steps = [...'0123456789X'];
      const snapshots = [...steps.map((_, i) => task('T', 'working', { message: `step ${i}` })), task('T', 'completed', { message: 'ok' })];
      const polls = snapshots.map((t) => cold('-(t|)', { t }));
      const send = cold('    -(r|)', working);
      const sendSubs = '     ^!';
      const pollSubs = pollsEvery11ms;
      const expected = '     s(twP)------0----------1----------2----------3----------4----------5----------6----------7----------8----------9----------X----------(ChE|)';
      const stepLabels = Object.fromEntries(steps.map((key, i) => [key, `status working "step ${i}"`]));
      expectTurn(turn(agent({ card: blockingCard, send, getTask: polls })), expected, [
        [send, sendSubs],
      ], { card: blockingCard, values: { ...labels, ...stepLabels } });
      polls.forEach((poll, i) => expectSubscriptions(poll.subscriptions).toBe(pollSubs[i]!));
    });
  });
});
