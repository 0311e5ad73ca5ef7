import { describe, expect, it } from 'vitest';
import { ev, task } from '../../../src/testing/index.js';
import { marbles, signIn, turn } from '../../helpers.js';

const working = ev.task('T', 'working');
const authRequired = ev.status('T', 'auth-required', signIn);

describe('interrupted states', () => {
  it('INPUT_REQUIRED ends the turn and closes the stream the server keeps open', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a----b------', { a: working, b: ev.status('T', 'input-required', 'Which city?') });
      const streamSubs = '   ^-----!';
      const expected = '     s(tw)-(iqI|)';
      const port = agent({ stream });
      expectTurn(turn(port), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('AUTH_REQUIRED is announced at once, the stream stays open past the idle bound, and it resumes to COMPLETED', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const resumed = { c: ev.status('T', 'working'), d: ev.status('T', 'completed', 'ok') };
      const stream = cold('  -a----b--- 96ms c-d|', { a: working, b: authRequired, ...resumed });
      const streamSubs = '   ^--------- 96ms --!';
      const expected = '     s(tw)-(Aa) 96ms w-(ChE|)';
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]]);
    });
  });

  it('ends with outcome auth-required when the auth wait expires, and does not cancel the task', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a----b', { a: working, b: authRequired });
      const streamSubs = '   ^--------- 296ms !';
      const expected = '     s(tw)-(Aa) 296ms (lL|)';
      const port = agent({ stream });
      expectTurn(turn(port), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('keeps the auth-wait clock running across repeated AUTH_REQUIRED events', () => {
    marbles(({ cold, agent, expectTurn }) => {
      // The second AUTH_REQUIRED does not restart the wait the first one began.
      const stream = cold('  -a----b--- 196ms b', { a: working, b: authRequired });
      const streamSubs = '   ^--------- 196ms - 99ms !';
      const expected = '     s(tw)-(Aa) 196ms - 99ms (lL|)';
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]]);
    });
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
