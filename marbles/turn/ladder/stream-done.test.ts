import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { labels, marbles, turn, withPolicy } from '../../helpers.js';

/**
 * A stream whose final status comes before the reply (`@reactive-agents/a2a` 0.9.0: the completed
 * status, then the artifact, then the end): read to the response's end, the reply folded like any.
 */
const chunk = ev.artifact('T', 'A', 'ok', { lastChunk: true });
const events = { t: ev.task('T', 'working'), c: ev.status('T', 'completed'), a: chunk };
const getTasks = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'getTask');

describe('what the agent sends after its final status', () => {
  it('the reply after the completed status, then the end → the reply once, and no GetTask', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -t---c-a|', events);
      const streamSubs = '   ^-------!';
      const expected = '     s(tw)c-h(E|)';
      const port = agent({ stream });
      expectTurn(turn(port), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([]);
  });

  // Each case: the stream, when it is left, what GetTask reads back (if it is asked), and the turn.
  const left = [
    {
      title: 'a response held open after a bare final status is left after 30 ms of quiet (the idle bound, shorter than 250 ms)',
      stream: '    -t---c',
      streamSubs: '^ 34ms !',
      getTask: '         -(g|)',
      expected: '  s(tw)c 30ms (e|)',
    },
    {
      title: 'each event after the final status restarts the quiet: the reply comes 20 ms after it, and the turn ends 30 ms later',
      stream: '    -t---c 19ms a',
      streamSubs: '^ 54ms !',
      expected: '  s(tw)c 19ms h 29ms (E|)',
    },
    {
      title: 'a final status after a reply shown ends the stream at once, as before',
      stream: '    -t---a-c----|',
      streamSubs: '^------!',
      expected: '  s(tw)h-(cE|)',
    },
  ];
  for (const { title, stream: diagram, streamSubs, getTask, expected } of left) {
    it(title, () => {
      marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
        const stream = cold(diagram, events);
        const readBack = getTask === undefined ? undefined : cold(getTask, { g: task('T', 'completed') });
        expectObservable(turn(agent({ stream, getTask: readBack }))).toBe(expected, labels);
        expectSubscriptions(stream.subscriptions).toBe(streamSubs);
      });
    });
  }

  it('the quiet bound is 250 ms under a longer idle bound', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c', events);
      const getTask = cold('        -(g|)', { g: task('T', 'completed') });
      const expected = '     s(tw)c 250ms (e|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, withPolicy({ idleTimeoutMs: 400 }))).toBe(expected, labels);
    });
  });

  it('a break after the last word ends the turn with what was said: no error, no reconnect', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const broken = new A2AError({ kind: 'network', retryable: true, message: 'socket hang up' });
      const stream = cold('  -t---c-a-#', events, broken);
      const expected = '     s(tw)c-h-(E|)';
      expectObservable(turn(agent({ stream }))).toBe(expected, labels);
    });
  });

});

describe('a reply later than the stream was read', () => {
  it("the GetTask at a bare end brings the task's artifacts: they are the reply (no history needed)", () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c', events);
      const withArtifact = { ...task('T', 'completed'), artifacts: [{ artifactId: 'A', parts: [{ kind: 'text' as const, text: 'ok' }] }] };
      const getTask = cold('        -(g|)', { g: withArtifact });
      const expected = '     s(tw)c 30ms (hE|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });
});
