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

  // A break, a resubscribe that fails with an error not worth another attempt, then polls: each
  // GetTask answers `w` (T working) or `c` (T completed "ok").
  const refusedResubscribes = [
    {
      title: 'polls when the resubscribe is refused',
      refusal: new A2AError({ kind: 'unsupported', code: -32004, message: 'resubscribe not supported' }),
      resubscribe: '         -#',
      resubscribeSubs: '15ms ^!',
      polls: [
        '            -(w|)',
        '            -(c|)',
      ],
      pollSubs: [
        '       16ms ^!',
        '       27ms ^!',
      ],
      expected: '       s(tw)r 10ms p 11ms (ChE|)',
    },
    {
      title: "polls when the resubscribe is answered with an error of the server's own (a JSON-RPC code)",
      refusal: new A2AError({ kind: 'protocol', code: -32603, message: 'Internal error' }),
      resubscribe: '                   -#',
      resubscribeSubs: '---------------^!',
      polls: [
        '                       -(c|)',
      ],
      pollSubs: [
        '       ----------------^!',
      ],
      expected: '       s(tw)r----------p(ChE|)',
    },
  ];
  for (const { title, refusal, resubscribe: refused, resubscribeSubs, polls: answers, pollSubs, expected } of refusedResubscribes) {
    it(title, () => {
      marbles(({ cold, agent, expectTurn }) => {
        const stream = cold('    -a---#', { a: working }, drop);
        const streamSubs = '     ^----!';
        const resubscribe = cold<never>(refused, undefined, refusal);
        const polls = answers.map((answer) => cold(answer, { w: task('T', 'working'), c: task('T', 'completed', { message: 'ok' }) }));
        expectTurn(turn(agent({ stream, resubscribe, getTask: polls })), expected, [
          [stream, streamSubs],
          [resubscribe, resubscribeSubs],
          ...polls.map((poll, n) => [poll, pollSubs[n]!] as const),
        ]);
      });
    });
  }

  // The same diagram whichever bound ends the resubscribing: two attempts, or 25 ms since the break.
  const capped = withPolicy({ idleTimeoutMs: 20, reconnect: { ...options.policy?.reconnect, maxAttempts: 10, maxElapsedMs: 25 } });
  const dropped = {
    resubscribe: '   -#',
    resubscribeSubs: [
      '                  16ms ^!',
      '                  37ms ^!',
    ],
    getTaskSubs: '   38ms ^!',
    expected: '      s(tw)-r 10ms R 20ms p(ChE|)',
  };
  // A break, then resubscribes that make no progress (`#` a drop, `s` the task's snapshot) until they
  // run out: T is polled once and completes.
  const runOut = [
    { title: 'polls when the resubscribe attempts are exhausted', ladder: options, ...dropped },
    { title: 'stops resubscribing once reconnect.maxElapsedMs has passed since the break, and polls', ladder: capped, ...dropped },
    {
      title: 'a resubscribe that sends only its snapshot and closes is no progress: the attempts run out, then polling',
      ladder: options,
      resubscribe: '   -s|',
      resubscribeSubs: [
        '                  16ms ^-!',
        '                  38ms ^-!',
      ],
      getTaskSubs: '   40ms ^!',
      expected: '      s(tw)-r 11ms R 21ms p(ChE|)',
    },
  ];
  for (const { title, ladder, resubscribe: resubscribed, resubscribeSubs, getTaskSubs, expected } of runOut) {
    it(title, () => {
      const calls = marbles(({ cold, agent, expectTurn }) => {
        const stream = cold('-a----#', { a: working }, drop);
        const streamSubs = ' ^-----!';
        const resubscribe = cold(resubscribed, { s: working }, drop);
        const getTask = cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) });
        const port = agent({ stream, resubscribe, getTask });
        expectTurn(turn(port, { text: 'hi' }, ladder), expected, [[stream, streamSubs], [resubscribe, resubscribeSubs], [getTask, getTaskSubs]]);
        return port.calls;
      });
      expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'resubscribe', 'getTask']);
    });
  }

  // A break, then two resubscribes: what the first answers (`s` the task, `a` a chunk, `#` a drop),
  // the second's snapshot (`s`, or `S` with the reply) and completion, and when each is called.
  const twoResubscribes = [
    {
      title: 'starts counting attempts afresh after a resubscribe that delivered events',
      resub1: '      -sa#',
      resub1Subs: ' 16ms ^--!',
      resub2: '      -(Sd|)',
      resub2Subs: ' 29ms ^!',
      expected: '   s(tw)-r 11ms hr 10ms (cE|)',
    },
    {
      title: 'a resubscribe with no first event within its bound is a failed attempt',
      resub1: '      -',
      resub1Subs: ' 16ms ^ 49ms !',
      resub2: '      -(sd|)',
      resub2Subs: ' 86ms ^!',
      expected: '   s(tw)-r 59ms R 20ms (cU|)',
    },
  ];
  for (const { title, resub1: first, resub1Subs, resub2: second, resub2Subs, expected } of twoResubscribes) {
    it(title, () => {
      marbles(({ cold, agent, expectTurn }) => {
        const stream = cold('-a----#', { a: working }, drop);
        const streamSubs = ' ^-----!';
        const withReply = ev.task('T', 'working', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] });
        const resub1 = cold(first, { s: working, a: ev.artifact('T', 'A', 'ok') }, drop);
        const resub2 = cold(second, { s: working, S: withReply, d: completed });
        expectTurn(turn(agent({ stream, resubscribe: [resub1, resub2] })), expected, [
          [stream, streamSubs],
          [resub1, resub1Subs],
          [resub2, resub2Subs],
        ]);
      });
    });
  }

});
