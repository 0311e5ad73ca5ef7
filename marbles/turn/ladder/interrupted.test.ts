import { describe, expect, it } from 'vitest';
import { ev, task } from '../../../src/testing/index.js';
import { marbles, signIn, streamedTurns, turn } from '../../helpers.js';

const working = ev.task('T', 'working');
const authRequired = ev.status('T', 'auth-required', signIn);

describe('interrupted states', () => {
  // Each case: the stream (`a` T working, `i` input-required, `b` auth-required, then `c` working and
  // `d` completed), when it is left, and the turn; none calls more than the card and the stream.
  const streamed = [
    {
      title: 'INPUT_REQUIRED ends the turn and closes the stream the server keeps open',
      stream: '    -a----i------',
      streamSubs: '^-----!',
      expected: '  s(tw)-(iqI|)',
    },
    {
      title: 'AUTH_REQUIRED is announced at once, the stream stays open past the idle bound, and it resumes to COMPLETED',
      stream: '    -a----b--- 96ms c-d|',
      streamSubs: '^--------- 96ms --!',
      expected: '  s(tw)-(Aa) 96ms w-(ChE|)',
    },
    {
      title: 'ends with outcome auth-required when the auth wait expires, and does not cancel the task',
      stream: '    -a----b',
      streamSubs: '^--------- 296ms !',
      expected: '  s(tw)-(Aa) 296ms (lL|)',
    },
    {
      title: 'keeps the auth-wait clock running across repeated AUTH_REQUIRED events',
      // The second AUTH_REQUIRED does not restart the wait the first one began.
      stream: '    -a----b--- 196ms b',
      streamSubs: '^--------- 196ms - 99ms !',
      expected: '  s(tw)-(Aa) 196ms - 99ms (lL|)',
    },
  ];
  streamedTurns(streamed, {
    events: { a: working, i: ev.status('T', 'input-required', 'Which city?'), b: authRequired, c: ev.status('T', 'working'), d: ev.status('T', 'completed', 'ok') },
    called: ['card', 'stream'],
  });

  it('asks once with GetTask when the server closes the stream at AUTH_REQUIRED', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a----b|', { a: working, b: authRequired });
      const streamSubs = '   ^------!';
      const getTask = cold('        ---(t|)', { t: task('T', 'auth-required', { message: signIn }) });
      const getTaskSubs = '  -------^--!';
      const expected = '     s(tw)-(Aa)(lL|)';
      const port = agent({ stream, getTask });
      expectTurn(turn(port), expected, [[stream, streamSubs], [getTask, getTaskSubs]]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'getTask']);
  });
});
