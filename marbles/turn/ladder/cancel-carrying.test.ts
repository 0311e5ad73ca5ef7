/**
 * Orphan nothing (issue 48): a turn left before the agent named its task — an agent that sends no
 * byte until its work is done — reads its request on for `cancelTimeoutMs`; ended without the task
 * named, it finds the task carrying its message (ListTasks with history, as a message is delivered
 * once) and cancels it: bounded, after the turn ended for its caller, tracked like a CancelTask.
 */
import { throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { TaskPage } from '../../../src/port/port.js';
import type { AgentEvent, AgentMessage, Task } from '../../../src/port/types.js';
import { task } from '../../../src/testing/index.js';
import { labels, marbles, options, turn, withPolicy } from '../../helpers.js';

/** A task of thread C whose history holds the user message `messageId`. */
function carrying(id: string, state: Task['status']['state'], messageId: string): Task {
  const history: AgentMessage[] = [{ role: 'user', messageId, parts: [{ kind: 'text', text: 'hi' }] }];
  return { ...task(id, state, { contextId: 'C' }), history };
}
const page = (...tasks: Task[]): TaskPage => ({ tasks });
const canceled = { x: task('T', 'canceled', { contextId: 'C' }) };
const request = { text: 'hi', contextId: 'C', messageId: 'm-1' };

describe('a turn left before its task was named, on an agent that lists tasks', () => {
  it('the stream is read on for cancelTimeoutMs; then the task carrying the message is found and cancelled once', () => {
    const tracked: { closed: boolean }[] = [];
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold('        -(p|)', { p: page(carrying('T', 'working', 'm-1')) });
      const cancel = cold('           --(x|)', canceled);
      const port = agent({ stream, listTasks, cancel });
      const ladder = { ...options, onCancel: (s: { closed: boolean }) => tracked.push(s) };
      expectTurn(turn(port, request, ladder), 's', [[stream, '^ 22ms !'], [listTasks, '23ms ^!'], [cancel, '24ms ^-!']], { unsub: '^--!' });
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'listTasks')).toEqual([
      { method: 'listTasks', contextId: 'C', options: expect.objectContaining({ historyLength: 100 }) },
    ]);
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
    // The background read, the lookup and the CancelTask: each handed to onCancel (a host's close waits for them), each ended.
    expect(tracked).toHaveLength(3);
    expect(tracked.every((s) => s.closed)).toBe(true);
  });

  it('a blocking send left before it answered: the same', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectObservable, expectSubscriptions }) => {
      const send = cold<never>('-');
      const listTasks = cold('  -(p|)', { p: page(carrying('T', 'submitted', 'm-1')) });
      const cancel = cold('     -(x|)', canceled);
      const port = agent({ card: blockingCard, send, listTasks, cancel });
      expectObservable(turn(port, request), '^-!').toBe('s', labels);
      expectSubscriptions(send.subscriptions).toBe('^ 21ms !');
      expectSubscriptions(cancel.subscriptions).toBe('23ms ^!');
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('a task found settled by then (the agent finished its work) is not cancelled', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold('        -(p|)', { p: page(carrying('T', 'completed', 'm-1')) });
      const cancel = cold('           (x|)', canceled);
      expectObservable(turn(agent({ stream, listTasks, cancel }), request), '^--!').toBe('s', labels);
      expectSubscriptions(listTasks.subscriptions).toBe('23ms ^!');
      expectSubscriptions(cancel.subscriptions).toBe([]);
    });
  });

  it("another message's task is not cancelled", () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold('        -(p|)', { p: page(carrying('T0', 'working', 'm-0')) });
      const cancel = cold('           (x|)', canceled);
      expectObservable(turn(agent({ stream, listTasks, cancel }), request, withPolicy({ notReceivedAfterMs: 0 })), '^--!').toBe('s', labels);
      expectSubscriptions(cancel.subscriptions).toBe([]);
    });
  });

  it('the lookup is bounded (lookupTimeoutMs): an agent that never lists gets no CancelTask', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold<TaskPage>('-');
      const cancel = cold('           (x|)', canceled);
      const ladder = withPolicy({ lookupTimeoutMs: 10 });
      expectObservable(turn(agent({ stream, listTasks, cancel }), request, ladder), '^--!').toBe('s', labels);
      expectSubscriptions(listTasks.subscriptions).toBe('23ms ^ 9ms !');
      expectSubscriptions(cancel.subscriptions).toBe([]);
    });
  });
});

describe('a turn left before its task was named, where no lookup can be made: nothing is sent', () => {
  it('an agent without ListTasks (v0.3: the port refuses it before any request): no CancelTask', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = throwError(() => new A2AError({ kind: 'unsupported', operation: 'list-tasks', message: 'v0.3 agents have no ListTasks' }));
      const cancel = cold('  (x|)', canceled);
      const port = agent({ stream, listTasks, cancel });
      expectObservable(turn(port, request), '^--!').toBe('s', labels);
      expectSubscriptions(cancel.subscriptions).toBe([]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream', 'listTasks']);
  });

  it('a message without a contextId (no thread to list): no ListTasks', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold('-(p|)', { p: page(carrying('T', 'working', 'm-1')) });
      const port = agent({ stream, listTasks });
      expectObservable(turn(port, { text: 'hi', messageId: 'm-1' }), '^--!').toBe('s', labels);
      expectSubscriptions(listTasks.subscriptions).toBe([]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('a host handing its turns over (detached): no ListTasks', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold<AgentEvent>('-');
      const listTasks = cold('-(p|)', { p: page(carrying('T', 'working', 'm-1')) });
      expectObservable(turn(agent({ stream, listTasks }), request, { ...options, detached: () => true }), '^--!').toBe('s', labels);
      expectSubscriptions(listTasks.subscriptions).toBe([]);
    });
  });
});
