import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createA2A } from '../../src/client/create-a2a.js';
import type { SecondMessage } from '../../src/client/lanes.js';
import { ev, task } from '../../src/testing/index.js';
import type { RunHelpers } from 'rxjs/testing';
import type { ColdObservable } from 'rxjs/internal/testing/ColdObservable';
import type { AgentEvent } from '../../src/port/types.js';
import type { A2APort } from '../../src/port/port.js';
import { a2aError, label, marbles, options } from '../helpers.js';

const thread = { agent: 'http://127.0.0.1/', handle: 'h', thread: 't', contextId: 'C' };
const L = {
  s: 'start',
  t: 'task T1',
  u: 'task T2',
  w: 'status working',
  o: 'text "one"',
  p: 'text "two"',
  c: 'status completed',
  O: 'end completed "one"',
  P: 'end completed "two"',
};
/** The agent's streams for the first and the second message: the task at +1, its text at +7, done at +9. */
const answers = (cold: RunHelpers['cold']) =>
  [1, 2].map((n) =>
    cold('-t-----a-c|', {
      t: ev.task(`T${n}`, 'working', { contextId: 'C' }),
      a: ev.artifact(`T${n}`, 'A', n === 1 ? 'one' : 'two', { lastChunk: true }),
      c: ev.status(`T${n}`, 'completed'),
    }),
  ) as [ColdObservable<AgentEvent>, ColdObservable<AgentEvent>];

/** A client over `port` whose threads follow `rule` (default: the policy's default); `turn(text)` one message's labels. */
function clientOf(port: A2APort, rule?: SecondMessage) {
  const policy = rule === undefined ? options.policy : { ...options.policy, secondMessage: rule };
  const client = createA2A({ identitySecret: 'a secret of sixteen bytes or more', ports: () => port, policy });
  return (text: string, other: Partial<typeof thread> = {}) => client.turn({ ...thread, ...other, text }).pipe(map(label));
}

describe("a thread's second message while its first reply streams", () => {
  it('queue (the default): sent when the first reply ended; both answered, in order', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const [one, two] = answers(cold);
      const turn = clientOf(agent({ stream: [one, two] }));
      expectObservable(turn('one')).toBe('s(tw)--o-(cO|)', L);
      expectObservable(turn('two'), '--^').toBe('---------s(uw)--p-(cP|)', L);
      expectSubscriptions(one.subscriptions).toBe('^--------!');
      expectSubscriptions(two.subscriptions).toBe('---------^--------!');
    });
  });

  it('supersede: the first ends at once (aborted, its task cancelled) and the second is sent', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const [one, two] = answers(cold);
      const cancel = cold('(c|)', { c: task('T1', 'canceled') });
      const port = agent({ stream: [one, two], cancel });
      const turn = clientOf(port, 'supersede');
      expectObservable(turn('one')).toBe('s(tw)-#', L, a2aError({ kind: 'aborted', message: expect.stringContaining('superseded') }));
      expectObservable(turn('two'), '------^').toBe('------s(uw)--p-(cP|)', L);
      expectSubscriptions(one.subscriptions).toBe('^-----!');
      expectSubscriptions(two.subscriptions).toBe('------^--------!');
      expectSubscriptions(cancel.subscriptions).toBe('------(^!)');
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T1' }]);
  });

  it('parallel: sent at once beside the first', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const [one, two] = answers(cold);
      const turn = clientOf(agent({ stream: [one, two] }), 'parallel');
      expectObservable(turn('one')).toBe('s(tw)--o-(cO|)', L);
      expectObservable(turn('two'), '--^').toBe('--s(uw)--p-(cP|)', L);
      expectSubscriptions(one.subscriptions).toBe('^--------!');
      expectSubscriptions(two.subscriptions).toBe('--^--------!');
    });
  });

  it('queue: a waiting message left before its turn came sends nothing, and the next one moves up', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const [one, two] = answers(cold);
      const turn = clientOf(agent({ stream: [one, two] }));
      expectObservable(turn('one')).toBe('s(tw)--o-(cO|)', L);
      expectObservable(turn('left'), '-^--!').toBe('-', L);
      expectObservable(turn('two'), '--^').toBe('---------s(uw)--p-(cP|)', L);
      expectSubscriptions(one.subscriptions).toBe('^--------!');
      // The one that left never reached the agent: the second stream is the third message's.
      expectSubscriptions(two.subscriptions).toBe('---------^--------!');
    });
  });

  it('messages of other threads are never held back', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const [one, two] = answers(cold);
      const turn = clientOf(agent({ stream: [one, two] }));
      expectObservable(turn('one')).toBe('s(tw)--o-(cO|)', L);
      expectObservable(turn('two', { thread: 'other' }), '--^').toBe('--s(uw)--p-(cP|)', L);
    });
  });
});
