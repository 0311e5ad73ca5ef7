import { describe, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import { ev, task } from '../../../src/testing/index.js';
import { followTask } from '../../../src/turn/task/follow-task.js';
import { marbles } from '../../helpers.js';

/** Reconnects after 10 ms, then 20 (no jitter), at most twice in a row. */
const reconnect = { maxAttempts: 2, initialDelayMs: 10, factor: 2, maxDelayMs: 40, jitter: 0, random: () => 0 };
const drop = new A2AError({ kind: 'network', message: 'socket hang up' });
const events = { t: ev.task('T', 'working'), s: ev.status('T', 'working'), c: ev.status('T', 'completed'), x: ev.task('T', 'completed') };

describe('followTask (task subscribe)', () => {
  it('a stream that breaks is subscribed to again; its first event the whole task again; done when the task settles', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const first = cold(' -t-s-#', events, drop);
      const second = cold('-t--c', events);
      const port = agent({ resubscribe: [first, second] });
      expectObservable(followTask(port, 'T', reconnect)).toBe('-t-s 12ms t--(c|)', events);
      expectSubscriptions(second.subscriptions).toBe('15ms ^---!');
    });
  });

  it('breaks in a row past maxAttempts end it with the break', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const port = agent({ resubscribe: cold('-#', undefined, drop) });
      // Subscribed at 0, 11 (after 10), 32 (after 20): the third break is the answer.
      expectObservable(followTask(port, 'T', reconnect)).toBe('33ms #', undefined, drop);
    });
  });

  it('a task that has ended (the subscription refused as unsupported) is read once', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const refused = new A2AError({ kind: 'unsupported', message: 'task is in a terminal state', code: -32004 });
      const port = agent({ resubscribe: cold('-#', undefined, refused), getTask: cold('-(x|)', { x: task('T', 'completed') }) });
      expectObservable(followTask(port, 'T', reconnect)).toBe('--(x|)', events);
    });
  });
});
