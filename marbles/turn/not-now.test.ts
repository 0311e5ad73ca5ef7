import { defer, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import { ev, task, testCard } from '../../src/testing/index.js';
import { resolvePolicy } from '../../src/turn/policy.js';
import { whenTaken } from '../../src/turn/not-now.js';
import { cancelTask } from '../../src/turn/task/cancel-task.js';
import { threadHistory } from '../../src/turn/thread/thread-history.js';
import { a2aError, labels, marbles, turn, withPolicy } from '../helpers.js';

/** A 429 or 503 as the port reports it, with the `Retry-After` it named (ms), if any. */
const notNow = (status: number, retryAfterMs?: number): A2AError =>
  new A2AError({
    kind: 'http',
    status,
    retryable: true,
    message: `failed with HTTP ${status}`,
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

const done = { r: ev.task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }) };

/** Waits when the answer names none: 10, 20, 40 … (random 0: no jitter taken off). */
const retryAfter = { maxTries: 2, maxWaitMs: 100, initialDelayMs: 10, factor: 2, maxDelayMs: 100, jitter: 0.5 };
const ladder = withPolicy({ retryAfter });

describe('a call answered 429 or 503 before any event is made again when the agent takes requests', () => {
  it('a blocking send answered 503 with Retry-After is sent again after it, once, and the reply comes once', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const refused = cold<never>('-#', undefined, notNow(503, 30));
      const taken = cold('          -(r|)', done);
      const port = agent({ card: blockingCard, send: [refused, taken] });
      expectTurn(turn(port, { text: 'hi' }, ladder), 's 31ms (thcE|)', [[refused, '^!'], [taken, ' 31ms ^!']], { card: blockingCard });
      return port.calls;
    });
    expect(calls.map((call) => call.method)).toEqual(['card', 'send', 'send']);
  });

  it("a stream answered 429 without Retry-After is opened again after the policy's backoff (10, then 20)", () => {
    marbles(({ cold, agent, expectTurn }) => {
      const refused = cold<never>('-#', undefined, notNow(429));
      const events = cold('        -a---(b|)', { a: ev.task('T', 'working'), b: ev.status('T', 'completed', 'ok') });
      const port = agent({ stream: [refused, refused, events] });
      expectTurn(turn(port, { text: 'hi' }, ladder), 's 32ms (tw) (ChE|)', [[refused, ['^!', '11ms ^!']], [events, '32ms ^----!']]);
    });
  });

  it('past retryAfter.maxTries the error goes on, carrying when to try again (the last Retry-After)', () => {
    marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      const refused = cold<never>('-#', undefined, notNow(503, 5));
      expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, ladder)).toBe(
        's 12ms #',
        labels,
        a2aError({ kind: 'http', status: 503, retryAfterMs: 5, retryAt: expect.any(Number) }),
      );
      expectSubscriptions(refused.subscriptions).toBe(['^!', '6ms ^!', '12ms ^!']);
    });
  });

  it("without a Retry-After the error carries the backoff's next delay", () => {
    marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const refused = cold<never>('-#', undefined, notNow(503));
      expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, ladder)).toBe(
        's 32ms #',
        labels,
        a2aError({ kind: 'http', status: 503, retryAfterMs: 40 }),
      );
    });
  });

  it('a Retry-After past the turn deadline is not waited for: the error at once, saying when', () => {
    marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      const refused = cold<never>('-#', undefined, notNow(429, 5_000));
      const policy = withPolicy({ retryAfter: { ...retryAfter, maxWaitMs: 60_000 }, sendTimeoutMs: 100_000, turnTimeoutMs: 1_000 });
      expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, policy)).toBe(
        's#',
        labels,
        a2aError({ kind: 'http', status: 429, retryAfterMs: 5_000 }),
      );
      expectSubscriptions(refused.subscriptions).toBe('^!');
    });
  });

  it("a wait past the call's own bound (sendTimeoutMs) or past retryAfter.maxWaitMs is not waited for", () => {
    marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      const refused = cold<never>('-#', undefined, notNow(503, 250));
      expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, withPolicy({ retryAfter }))).toBe(
        's#',
        labels,
        a2aError({ status: 503, retryAfterMs: 250 }),
      );
      expectSubscriptions(refused.subscriptions).toBe('^!');
    });
    marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      // sendTimeoutMs 200 would allow 60 + 60, maxWaitMs 100 allows one of them.
      const refused = cold<never>('-#', undefined, notNow(503, 60));
      expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, ladder)).toBe(
        's 61ms #',
        labels,
        a2aError({ status: 503, retryAfterMs: 60 }),
      );
      expectSubscriptions(refused.subscriptions).toBe(['^!', '61ms ^!']);
    });
  });

  it('the card answered 503 with Retry-After is fetched again after it', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const refused = cold<never>('-#', undefined, new A2AError({ kind: 'card', status: 503, retryAfterMs: 20, message: 'no card (HTTP 503)' }));
      const card = cold('-(c|)', { c: testCard() });
      const events = cold('-(ab|)', { a: ev.task('T', 'working'), b: ev.status('T', 'completed', 'ok') });
      let cards = 0;
      const port = agent({ stream: events });
      port.card = () => defer(() => (cards++ === 0 ? refused : card));
      expectObservable(turn(port, { text: 'hi' }, ladder)).toBe('s 22ms (twChE|)', labels);
      expectSubscriptions(refused.subscriptions).toBe('^!');
      expectSubscriptions(card.subscriptions).toBe('21ms ^!');
    });
  });

  it('GetTask answered 503 is asked again after the Retry-After', () => {
    marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      const send = cold('-(r|)', { r: ev.task('T', 'working') });
      const busy = cold<never>('-#', undefined, notNow(503, 5));
      const polled = cold('-(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const port = agent({ card: blockingCard, send, getTask: [busy, polled] });
      expectObservable(turn(port, { text: 'hi' }, ladder)).toBe('s(twP) 12ms (ChE|)', labels);
      expectSubscriptions(busy.subscriptions).toBe('11ms ^!');
      expectSubscriptions(polled.subscriptions).toBe('17ms ^!');
    });
  });

  it('CancelTask answered 503, when the turn is left, is sent again after the Retry-After (within cancelTimeoutMs)', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('-a', { a: ev.task('T', 'working') });
      const busy = cold<never>('-#', undefined, notNow(503, 5));
      const cancelled = cold('-(x|)', { x: task('T', 'canceled') });
      const port = agent({ stream, cancel: [busy, cancelled] });
      expectObservable(turn(port, { text: 'hi' }, ladder), '^---!').toBe('s(tw)', labels);
      expectSubscriptions(busy.subscriptions).toBe('4ms ^!');
      expectSubscriptions(cancelled.subscriptions).toBe('10ms ^!');
    });
  });

  it('another error (500, a dropped connection, an auth refusal) is not waited for', () => {
    for (const error of [
      new A2AError({ kind: 'http', status: 500, retryable: true, message: 'HTTP 500' }),
      new A2AError({ kind: 'network', message: 'fetch failed' }),
      new A2AError({ kind: 'network', grpcCode: 14, message: 'UNAVAILABLE' }),
      new A2AError({ kind: 'auth', status: 401, message: 'refused' }),
    ]) {
      marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
        const refused = cold<never>('-#', undefined, error);
        expectObservable(turn(agent({ card: blockingCard, send: refused }), { text: 'hi' }, ladder)).toBe('s#', labels, error);
        expectSubscriptions(refused.subscriptions).toBe('^!');
      });
    }
  });
});

describe('outside a turn: a thread\'s history and a cancel by task id wait the same way', () => {
  it("client.history's ListTasks answered 429 with Retry-After is asked again after it", () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const busy = cold<never>('-#', undefined, notNow(429, 5));
      const page = cold('-(p|)', { p: { tasks: [] } });
      const port = agent({ listTasks: [busy, page] });
      expectObservable(threadHistory(port, 'ctx', { policy: { retryAfter } })).toBe('7ms (h|)', { h: { contextId: 'ctx', exchanges: [] } });
      expectSubscriptions(busy.subscriptions).toBe('^!');
      expectSubscriptions(page.subscriptions).toBe('6ms ^!');
    });
  });

  it('client.cancel\'s CancelTask answered 503 with Retry-After is sent again after it', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const busy = cold<never>('-#', undefined, notNow(503, 5));
      const cancelled = task('T', 'canceled');
      const done = cold('-(x|)', { x: cancelled });
      const port = agent({ cancel: [busy, done] });
      expectObservable(cancelTask(port, { taskId: 'T' }, resolvePolicy({ retryAfter }))).toBe('7ms (x|)', { x: cancelled });
      expectSubscriptions(busy.subscriptions).toBe('^!');
      expectSubscriptions(done.subscriptions).toBe('6ms ^!');
    });
  });
});

describe('whenTaken', () => {
  const bounds = { policy: resolvePolicy({ retryAfter }), random: () => 0, callMs: 1_000, deadline: undefined };

  it('a call that gave a value is never made again, whatever its error says', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = notNow(503, 1);
      const call = cold('-a-#', { a: 1 }, refused);
      expectObservable(whenTaken(call, bounds)).toBe('-a-#', { a: 1 }, refused);
      expectSubscriptions(call.subscriptions).toBe('^--!');
    });
  });

  it('gRPC RESOURCE_EXHAUSTED or UNAVAILABLE that says when (retry-after metadata) is made again', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const exhausted = new A2AError({ kind: 'protocol', grpcCode: 8, retryAfterMs: 3, message: 'RESOURCE_EXHAUSTED' });
      const call = cold<number>('-#', undefined, exhausted);
      expectObservable(whenTaken(call, bounds)).toBe('-   3ms -   3ms -#', undefined, exhausted);
      expectSubscriptions(call.subscriptions).toBe(['^!', '4ms ^!', '8ms ^!']);
    });
  });

  it('a call refused at once (no time passes) and left during its wait is not made again', () => {
    let tries = 0;
    marbles(({ expectObservable }) => {
      const call = defer(() => (tries++, throwError(() => notNow(429, 5))));
      expectObservable(whenTaken(call, bounds), '--!').toBe('');
    });
    expect(tries).toBe(1);
  });

  it('retryAfter.maxTries 0 makes no call again', () => {
    marbles(({ cold, expectObservable, expectSubscriptions }) => {
      const refused = notNow(429, 1);
      const call = cold<number>('-#', undefined, refused);
      const none = { ...bounds, policy: resolvePolicy({ retryAfter: { maxTries: 0 } }) };
      expectObservable(whenTaken(call, none)).toBe('-#', undefined, refused);
      expectSubscriptions(call.subscriptions).toBe('^!');
    });
  });
});
