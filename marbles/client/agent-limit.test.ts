import { asyncScheduler, map, Observable, type Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { AgentLimit } from '../../src/client/agent-limit.js';
import type { ResolvedLimits } from '../../src/client/agent-limit-option.js';
import type { AgentLimitsOption } from '../../src/client/agent-limit-option.js';
import { createA2A } from '../../src/client/create-a2a.js';
import type { TurnEvent } from '../../src/port/events.js';
import type { A2APort } from '../../src/port/port.js';
import type { AgentEvent } from '../../src/port/types.js';
import { ev, task } from '../../src/testing/index.js';
import { a2aError, label, marbles, options } from '../helpers.js';

/** A turn's own events, as the gated Observable passes them on: its start and its end. */
const E: Record<string, TurnEvent> = {
  s: { type: 'start' },
  e: { type: 'end', outcome: 'completed', text: 'ok' },
  q: { type: 'queued', place: 1 },
  Q: { type: 'queued', place: 2 },
  R: { type: 'queued', place: 3 },
};

/** A limit of one agent: no bound but those given, room for 10 waiting. */
function limitOf(given: Partial<ResolvedLimits>): AgentLimit {
  return new AgentLimit({ maxInFlight: Infinity, maxStartsPerSecond: Infinity, maxQueued: 10, ...given }, 'http://127.0.0.1/');
}

describe("one agent's limit (the gate alone)", () => {
  it('maxInFlight: the turns past the bound wait, and one starts as soon as a running one ends', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limit = limitOf({ maxInFlight: 2 });
      const [one, two, three] = [cold('s---(e|)', E), cold('s-----(e|)', E), cold('s---(e|)', E)];
      expectObservable(limit.gate(() => one)).toBe('s---(e|)', E);
      expectObservable(limit.gate(() => two)).toBe('s-----(e|)', E);
      expectObservable(limit.gate(() => three)).toBe('q---s---(e|)', E);
      expectSubscriptions(three.subscriptions).toBe('----^---!');
    });
  });

  it('FIFO: the waiting turns start in the order they came, each told when it moves up', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limit = limitOf({ maxInFlight: 1 });
      const turns = [0, 1, 2, 3].map(() => cold('s--(e|)', E));
      expectObservable(limit.gate(() => turns[0]!)).toBe('s--(e|)', E);
      expectObservable(limit.gate(() => turns[1]!)).toBe('q--s--(e|)', E);
      expectObservable(limit.gate(() => turns[2]!)).toBe('Q--q--s--(e|)', E);
      expectObservable(limit.gate(() => turns[3]!), '-^').toBe('-R-Q--q--s--(e|)', E);
      const started = ['^--!', '---^--!', '------^--!', '---------^--!'];
      turns.forEach((turn, index) => expectSubscriptions(turn.subscriptions).toBe(started[index]!));
    });
  });

  it('maxStartsPerSecond: no more than that many starts in any second; the rest start when the window lets them', () => {
    marbles(({ cold, expectObservable }) => {
      const limit = limitOf({ maxStartsPerSecond: 2 });
      const instant = () => cold('(se|)', E);
      expectObservable(limit.gate(instant)).toBe('(se|)', E);
      expectObservable(limit.gate(instant)).toBe('(se|)', E);
      expectObservable(limit.gate(instant)).toBe('q 999ms (se|)', E);
      expectObservable(limit.gate(instant), '500ms ^').toBe('500ms Q 499ms (se|)', E);
      expectObservable(limit.gate(instant), '600ms ^').toBe('600ms R 399ms q 999ms (se|)', E);
    });
  });

  it('maxQueued: a turn that finds the queue full fails at once, retryable, and is never run', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limit = limitOf({ maxInFlight: 1, maxQueued: 1 });
      const [one, two, three] = [cold('s---(e|)', E), cold('s---(e|)', E), cold('s---(e|)', E)];
      expectObservable(limit.gate(() => one)).toBe('s---(e|)', E);
      expectObservable(limit.gate(() => two)).toBe('q---s---(e|)', E);
      const full = a2aError({ kind: 'queue-full', retryable: true, agent: 'http://127.0.0.1/', message: expect.stringContaining('maxQueued') });
      expectObservable(limit.gate(() => three), '-^').toBe('-(s#)', E, full);
      expectSubscriptions(three.subscriptions).toBe([]);
      // Once the queue has room again, a turn waits again.
      expectObservable(limit.gate(() => cold('s|', E)), '-----^').toBe('-----q--s|', E);
    });
  });

  it('maxQueued 0: nothing waits; a turn past the bound fails at once', () => {
    marbles(({ cold, expectObservable }) => {
      const limit = limitOf({ maxInFlight: 1, maxQueued: 0 });
      expectObservable(limit.gate(() => cold('s--(e|)', E))).toBe('s--(e|)', E);
      expectObservable(limit.gate(() => cold('s|', E))).toBe('(s#)', E, a2aError({ kind: 'queue-full' }));
    });
  });

  it('a waiting turn left before it starts is never run, and those behind it move up', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limit = limitOf({ maxInFlight: 1 });
      const [one, left, three] = [cold('s---(e|)', E), cold('s---(e|)', E), cold('s---(e|)', E)];
      expectObservable(limit.gate(() => one)).toBe('s---(e|)', E);
      expectObservable(limit.gate(() => left), '^-!').toBe('q', E);
      expectObservable(limit.gate(() => three)).toBe('Q-q-s---(e|)', E);
      expectSubscriptions(left.subscriptions).toBe([]);
      expectSubscriptions(three.subscriptions).toBe('----^---!');
    });
  });

  it('a running turn that errors, or is left, frees its place at once when it leaves no cancel behind', () => {
    marbles(({ cold, expectObservable }) => {
      const limit = limitOf({ maxInFlight: 1 });
      expectObservable(limit.gate(() => cold('s-#', E))).toBe('s-#', E);
      expectObservable(limit.gate(() => cold('s-------(e|)', E)), '^----!').toBe('q-s--', E);
      expectObservable(limit.gate(() => cold('s|', E))).toBe('Q-q--s|', E);
    });
  });

  it("a running turn left with its CancelTask in flight keeps its place until the cancel's answer", () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const limit = limitOf({ maxInFlight: 1 });
      const cancel = cold('---(c|)');
      // A ladder's teardown: its CancelTask goes to `hold` (the ladder's onCancel).
      const leaving = (hold: (cancel: Subscription) => void): Observable<TurnEvent> =>
        new Observable<TurnEvent>((subscriber) => {
          subscriber.next(E.s!);
          return () => hold(cancel.subscribe());
        });
      expectObservable(limit.gate(leaving), '^-!').toBe('s-', E);
      expectObservable(limit.gate(() => cold('s|', E))).toBe('q----s|', E);
      expectSubscriptions(cancel.subscriptions).toBe('--^--!');
    });
  });
});

/** A client over `port` with `agentLimits`; `turn(thread)` is one message's labels, each on a thread of its own. */
function clientOf(port: A2APort, agentLimits: AgentLimitsOption) {
  const client = createA2A({ identitySecret: 'a secret of sixteen bytes or more', ports: () => port, policy: options.policy, agentLimits });
  const turn = (thread: string, agent = 'http://127.0.0.1/') =>
    client.turn({ agent, handle: 'h', thread, contextId: 'C', text: thread }).pipe(map(label));
  return { client, turn };
}

const L = {
  s: 'start',
  q: 'queued #1',
  Q: 'queued #2',
  t: 'task T1',
  w: 'status working',
  h: 'text "ok"',
  E: 'end completed "ok"',
};

describe('createA2A with agentLimits', () => {
  it('a queued turn left before it starts fetches no card and sends no message', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const port = agent({ stream: cold('---(m|)', { m: ev.message('ok') }) });
      const { turn } = clientOf(port, { maxInFlight: 1 });
      expectObservable(turn('one')).toBe('s--(hE|)', L);
      expectObservable(turn('left'), '^-!').toBe('q', L);
      expectObservable(turn('two')).toBe('Q-qs--(hE|)', L);
      return port.calls;
    });
    // Two turns reached the port (each its card, its thread's lookup, its message): the one left while queued never did.
    expect(calls.map((c) => c.method)).toEqual(['card', 'listTasks', 'stream', 'card', 'listTasks', 'stream']);
    const texts = calls.flatMap((c) => (c.method === 'stream' ? [c.message.text] : []));
    expect(texts).toEqual(['one', 'two']);
  });

  it("an abandoned running turn's place is free once its CancelTask is answered; an errored one's at once", () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('-t------', { t: ev.task('T1', 'working', { contextId: 'C' }) });
      const cancel = cold('--(c|)', { c: task('T1', 'canceled') });
      const failing = cold<AgentEvent>('-#', {}, new Error('refused'));
      const port = agent({ stream: [stream, cold('---(m|)', { m: ev.message('ok') }), failing, cold('(m|)', { m: ev.message('ok') })], cancel });
      const { turn } = clientOf(port, { maxInFlight: 1 });
      expectObservable(turn('one'), '^--!').toBe('s(tw)', L);
      // Left at 3, its CancelTask answered at 5: the next turn starts then, not at 3.
      expectObservable(turn('two')).toBe('q----s--(hE|)', L);
      expectSubscriptions(cancel.subscriptions).toBe('---^-!');
      expectObservable(turn('three'), '-^').toBe('-Q---q--s#', L, expect.anything());
      expectObservable(turn('four'), '-^').toBe('-R---Q--q(shE|)', { ...L, R: 'queued #3' });
    });
  });

  it('a turn left before its task was named keeps its place while it reads on, then while its CancelTask runs', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('---t----', { t: ev.task('T1', 'working', { contextId: 'C' }) });
      const cancel = cold('--(c|)', { c: task('T1', 'canceled') });
      const port = agent({ stream: [stream, cold('(m|)', { m: ev.message('ok') })], cancel });
      const { turn } = clientOf(port, { maxInFlight: 1 });
      expectObservable(turn('one'), '^!').toBe('s', L);
      // Read on from 1 to 3 (the task named), its CancelTask from 3 to 5: the next turn starts at 5.
      expectObservable(turn('two')).toBe('q----(shE|)', L);
      expectSubscriptions(stream.subscriptions).toBe('^--!');
      expectSubscriptions(cancel.subscriptions).toBe('---^-!');
    });
  });

  it('agents keep separate queues; an `agents` entry sets its own bounds ({} lifts them)', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const port = agent({ stream: cold('--(m|)', { m: ev.message('ok') }) });
      const { turn } = clientOf(port, { maxInFlight: 1, agents: { 'http://127.0.0.1/free': {} } });
      expectObservable(turn('one')).toBe('s-(hE|)', L);
      expectObservable(turn('two')).toBe('q-s-(hE|)', L);
      expectObservable(turn('a', 'http://127.0.0.1/free/')).toBe('s-(hE|)', L);
      expectObservable(turn('b', 'http://127.0.0.1/free/')).toBe('s-(hE|)', L);
      expectObservable(turn('c', 'http://127.0.0.1/other/')).toBe('s-(hE|)', L);
    });
  });

  it('a resume waits its turn too', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const port = agent({
        stream: cold('--(m|)', { m: ev.message('ok') }),
        resubscribe: cold('-(tc|)', { t: ev.task('T1', 'working', { contextId: 'C' }), c: ev.status('T1', 'completed', 'ok') }),
      });
      const { client, turn } = clientOf(port, { maxInFlight: 1 });
      expectObservable(turn('one')).toBe('s-(hE|)', L);
      const resumed = client.resume({ agent: 'http://127.0.0.1/', taskId: 'T1' }).pipe(map(label));
      expectObservable(resumed).toBe('q-s(twchE|)', { ...L, c: 'status completed "ok"' });
    });
  });

  it('close() ends a queued turn with an error that says nothing was sent, even when it hands turns over', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const port = agent({ stream: cold('-t------', { t: ev.task('T1', 'working', { contextId: 'C' }) }) });
      const { client, turn } = clientOf(port, { maxInFlight: 1 });
      turn('one').subscribe({ error: () => undefined });
      const unsent = a2aError({ kind: 'aborted', message: expect.stringContaining("waited in its agent's queue") });
      expectObservable(turn('two')).toBe('q-#', L, unsent);
      asyncScheduler.schedule(() => void client.close({ detach: true }), 2);
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'stream')).toHaveLength(1);
  });
});
