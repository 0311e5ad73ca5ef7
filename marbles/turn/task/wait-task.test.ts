import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task } from '../../../src/testing/index.js';
import { waitForTask, type TaskWait } from '../../../src/turn/task/wait-task.js';
import { a2aError, marbles } from '../../helpers.js';

/** Polls every 10, 15, then 20 ms (backoff ×1.5 capped at 20); each request within 5 ms; the whole wait within 100. */
const wait: TaskWait = { pollIntervalMs: 10, maxPollIntervalMs: 20, timeoutMs: 100, requestTimeoutMs: 5, preferStream: false, random: () => 0 };
const states = { w: task('T', 'working'), c: task('T', 'completed'), i: task('T', 'input-required'), u: task('T', 'unknown'), a: task('T', 'auth-required') };

describe('waitForTask (task get --wait)', () => {
  it('polls with a bounded backoff until the task is terminal, then completes', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const getTask = [cold('-(w|)', states), cold('-(w|)', states), cold('-(c|)', states)];
      const port = agent({ getTask });
      expectObservable(waitForTask(port, 'T', wait)).toBe('-w 10ms w 15ms (c|)', states);
      expectSubscriptions(getTask[1]!.subscriptions).toBe('11ms ^!');
      expectSubscriptions(getTask[2]!.subscriptions).toBe('27ms ^!');
    });
  });

  it('stops at once at an interrupted state (input-required, auth-required)', () => {
    for (const state of ['i', 'a'] as const) {
      marbles(({ cold, agent, expectObservable }) => {
        const port = agent({ getTask: [cold('-(w|)', states), cold('-(x|)', { x: states[state] })] });
        expectObservable(waitForTask(port, 'T', wait)).toBe('-w 10ms (x|)', { ...states, x: states[state] });
      });
    }
  });

  it('polls on through UNSPECIFIED (neither terminal nor interrupted) and ends with a timeout at the bound', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const port = agent({ getTask: cold('-(u|)', states) });
      // Polls at 0, 11, 27, 48, 69, 90: answered at 1, 12, 28, 49, 70, 91; the bound at 100.
      expectObservable(waitForTask(port, 'T', wait)).toBe('-u 10ms u 15ms u 20ms u 20ms u 20ms u 8ms #', states, a2aError({ kind: 'timeout', phase: 'turn', operation: 'get-task' }));
    });
  });

  it('a task the agent does not know ends the wait at once', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const gone = new A2AError({ kind: 'task-not-found', message: 'no such task', code: -32001 });
      const port = agent({ getTask: cold('-#', undefined, gone) });
      expectObservable(waitForTask(port, 'T', wait)).toBe('-#', undefined, gone);
    });
  });

  it('prefers the stream: no poll while it runs; the whole task read once when it says the task settled', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const resubscribe = cold('-a 30ms b 10ms c', { a: ev.task('T', 'working'), b: ev.status('T', 'working'), c: ev.status('T', 'completed') });
      const getTask = cold('-(c|)', states);
      const port = agent({ resubscribe, getTask });
      expectObservable(waitForTask(port, 'T', { ...wait, preferStream: true })).toBe('44ms (c|)', states);
      expectSubscriptions(getTask.subscriptions).toBe('43ms ^!');
      expectSubscriptions(resubscribe.subscriptions).toBe('^ 42ms !');
    });
  });

  it('falls back to polling when the stream fails, and drives the task to its end', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const drop = new A2AError({ kind: 'network', message: 'socket hang up' });
      const resubscribe = cold('-a 3ms #', { a: ev.task('T', 'working') }, drop);
      const port = agent({ resubscribe, getTask: [cold('-(w|)', states), cold('-(c|)', states)] });
      expectObservable(waitForTask(port, 'T', { ...wait, preferStream: true })).toBe('6ms w 10ms (c|)', states);
    });
  });

  it('polls without streaming when the card says the agent does not stream', () => {
    marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const port = agent({ card: blockingCard, getTask: cold('-(c|)', states) });
      expectObservable(waitForTask(port, 'T', { ...wait, preferStream: true })).toBe('-(c|)', states);
      expect(port.calls.some((call) => call.method === 'resubscribe')).toBe(false);
    });
  });
});
