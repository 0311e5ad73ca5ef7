import { describe, expect, it } from 'vitest';
import type { AgentEvent, TaskState } from '../src/port/types.js';
import { TurnTask } from '../src/turn/task.js';

const status = (state: TaskState, taskId = 't1'): AgentEvent => ({
  kind: 'status',
  taskId,
  contextId: 'c1',
  status: { state },
});
const snapshot = (state: TaskState): AgentEvent => ({
  kind: 'task',
  task: { id: 't1', contextId: 'c1', status: { state }, artifacts: [], history: [] },
});

describe('TurnTask: read everywhere, written through its verbs', () => {
  it('claimCancel is true once, for a known, unsettled task the agent has not disowned', () => {
    const task = new TurnTask({ contextId: 'c0' });
    expect(task.claimCancel()).toBe(false); // no task yet
    task.observe(status('working'));
    expect(task.claimCancel()).toBe(true);
    expect(task.claimCancel()).toBe(false);
  });

  it('claimCancel is false for a settled task and for one the agent disowned', () => {
    const settled = new TurnTask();
    settled.observe(status('completed'));
    expect(settled.claimCancel()).toBe(false);
    const disowned = new TurnTask();
    disowned.observe(status('working'));
    disowned.disown();
    expect(disowned.unknownToAgent).toBe(true);
    expect(disowned.cancellable).toBe(false);
    expect(disowned.claimCancel()).toBe(false);
  });

  it('a gap lasts until the next task snapshot', () => {
    const task = new TurnTask();
    task.observe(status('working'));
    expect(task.gap).toBe(false);
    task.markGap();
    task.observe(status('working'));
    expect(task.gap).toBe(true);
    task.observe(snapshot('working'));
    expect(task.gap).toBe(false);
  });

  it('observes ids, state and events; a sign of life is no event', () => {
    const task = new TurnTask({ contextId: 'sent' });
    expect(task.contextId).toBe('sent');
    task.observe({ kind: 'alive' });
    expect(task.events).toBe(0);
    task.observe(status('input-required'));
    expect(task).toMatchObject({ taskId: 't1', contextId: 'c1', state: 'input-required', events: 1, messageOnly: false });
    expect(task.streamDone).toBe(true);
    expect(task.belongs(status('working', 'other'))).toBe(false);
  });
});
