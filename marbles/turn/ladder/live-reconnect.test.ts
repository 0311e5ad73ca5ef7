import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { a2aError, labels, marbles, options, turn, withPolicy } from '../../helpers.js';

const drop = new A2AError({ kind: 'network', message: 'terminated' });
const working = ev.task('T', 'working');
const completed = ev.status('T', 'completed');
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);

describe('reconnect: resubscribe, never re-send', () => {
  it('resubscribes after a break with backoff, and the snapshot replaces the reply', () => {
    const snapshot = ev.task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'Hello' }] }] });
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('    -a----b-#', { a: working, b: ev.artifact('T', 'A', 'Hel') }, drop);
      const streamSubs = '     ^-------!';
      const resubscribe = cold('                 -s-d|', { s: snapshot, d: completed });
      const resubscribeSubs = '------------------^--!';
      const expected = '       s(tw)-H-r----------O-(cF|)';
      const port = agent({ stream, resubscribe });
      expectTurn(turn(port), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
      ], { values: { ...labels, H: 'text "Hel"', O: 'text "lo"', F: 'end completed "Hello"' } });
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe']);
    expect(calls[2]).toEqual({ method: 'resubscribe', taskId: 'T' });
  });

  it('treats a clean close before a settled state as a break', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('    -a---|', { a: working });
      const streamSubs = '     ^----!';
      const resubscribe = cold('              -(sd|)', { s: working, d: ev.status('T', 'completed', 'ok') });
      const resubscribeSubs = '---------------^!';
      const expected = '       s(tw)r----------(ChE|)';
      expectTurn(turn(agent({ stream, resubscribe })), expected, [[stream, streamSubs], [resubscribe, resubscribeSubs]]);
    });
  });

  it('errors when the stream breaks before any task id, and never re-sends', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('--#', undefined, drop);
      const streamSubs = '        ^-!';
      const expected = '          s-#';
      const port = agent({ stream });
      expectTurn(turn(port), expected, [[stream, streamSubs]], { error: drop });
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });

  it('errors when a clean close comes before any task id', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('--|');
      const streamSubs = '        ^-!';
      const expected = '          s-#';
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]], { error: a2aError({ kind: 'stream-closed' }) });
    });
  });

  it('reconnects when the stream goes idle past the idle bound', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('    -a', { a: working });
      const streamSubs = '     ^ 30ms !';
      const resubscribe = cold('-(sd|)', { s: working, d: completed });
      const resubscribeSubs = '41ms ^!';
      const expected = '       s(tw) 26ms r 10ms (cU|)';
      expectTurn(turn(agent({ stream, resubscribe })), expected, [[stream, streamSubs], [resubscribe, resubscribeSubs]]);
    });
  });

  it('polls when the resubscribe is refused', () => {
    const refused = new A2AError({ kind: 'unsupported', code: -32004, message: 'resubscribe not supported' });
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('    -a---#', { a: working }, drop);
      const streamSubs = '     ^----!';
      const resubscribe = cold<never>('-#', undefined, refused);
      const resubscribeSubs = '15ms ^!';
      const get1 = cold('      -(t|)', { t: task('T', 'working') });
      const get1Subs = '       16ms ^!';
      const get2 = cold('      -(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const get2Subs = '       27ms ^!';
      const expected = '       s(tw)r 10ms p 11ms (ChE|)';
      expectTurn(turn(agent({ stream, resubscribe, getTask: [get1, get2] })), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [get1, get1Subs],
        [get2, get2Subs],
      ]);
    });
  });

  // The same diagram whichever bound ends the resubscribing: two attempts, or 25 ms since the break.
  const capped = withPolicy({ idleTimeoutMs: 20, reconnect: { ...options.policy?.reconnect, maxAttempts: 10, maxElapsedMs: 25 } });
  it.each([
    ['polls when the resubscribe attempts are exhausted', options],
    ['stops resubscribing once reconnect.maxElapsedMs has passed since the break, and polls', capped],
  ])('%s', (_, ladder) => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-a----#', { a: working }, drop);
      const streamSubs = ' ^-----!';
      const resubscribe = cold<never>('-#', undefined, drop);
      const resubscribeSubs = [
        '                  16ms ^!',
        '                  37ms ^!',
      ];
      const getTask = cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const getTaskSubs = '38ms ^!';
      const expected = '   s(tw)-r 10ms R 20ms p(ChE|)';
      const port = agent({ stream, resubscribe, getTask });
      expectTurn(turn(port, { text: 'hi' }, ladder), expected, [[stream, streamSubs], [resubscribe, resubscribeSubs], [getTask, getTaskSubs]]);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
  });

  it('starts counting attempts afresh after a resubscribe that delivered events', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-a----#', { a: working }, drop);
      const streamSubs = ' ^-----!';
      const resub1 = cold('-sa#', { s: working, a: ev.artifact('T', 'A', 'ok') }, drop);
      const resub1Subs = ' 16ms ^--!';
      const resub2 = cold('-(sd|)', { s: ev.task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }), d: completed });
      const resub2Subs = ' 29ms ^!';
      const expected = '   s(tw)-r 11ms hr 10ms (cE|)';
      expectTurn(turn(agent({ stream, resubscribe: [resub1, resub2] })), expected, [
        [stream, streamSubs],
        [resub1, resub1Subs],
        [resub2, resub2Subs],
      ]);
    });
  });

  it('a resubscribe with no first event within its bound is a failed attempt', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-a----#', { a: working }, drop);
      const streamSubs = ' ^-----!';
      const silent = cold<never>('-');
      const silentSubs = ' 16ms ^ 49ms !';
      const resub2 = cold('-(sd|)', { s: working, d: completed });
      const resub2Subs = ' 86ms ^!';
      const expected = '   s(tw)-r 59ms R 20ms (cU|)';
      expectTurn(turn(agent({ stream, resubscribe: [silent, resub2] })), expected, [
        [stream, streamSubs],
        [silent, silentSubs],
        [resub2, resub2Subs],
      ]);
    });
  });

  it("polls when the resubscribe is answered with an error of the server's own (a JSON-RPC code)", () => {
    const internal = new A2AError({ kind: 'protocol', code: -32603, message: 'Internal error' });
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('    -a---#', { a: working }, drop);
      const streamSubs = '     ^----!';
      const resubscribe = cold<never>('       -#', undefined, internal);
      const resubscribeSubs = '---------------^!';
      const getTask = cold('                   -(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const getTaskSubs = '    ----------------^!';
      const expected = '       s(tw)r----------p(ChE|)';
      expectTurn(turn(agent({ stream, resubscribe, getTask })), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [getTask, getTaskSubs],
      ]);
    });
  });

  it('a resubscribe that sends only its snapshot and closes is no progress: the attempts run out, then polling', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('-a----#', { a: working }, drop);
      const streamSubs = ' ^-----!';
      const resubscribe = cold('-s|', { s: working });
      const resubscribeSubs = [
        '                  16ms ^-!',
        '                  38ms ^-!',
      ];
      const getTask = cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const getTaskSubs = '40ms ^!';
      const expected = '   s(tw)-r 11ms R 21ms p(ChE|)';
      const port = agent({ stream, resubscribe, getTask });
      expectTurn(turn(port), expected, [[stream, streamSubs], [resubscribe, resubscribeSubs], [getTask, getTaskSubs]]);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
  });
});
