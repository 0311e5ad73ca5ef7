import { describe, expect, it } from 'vitest';
import { elicitationsIn, MAX_ELICITATIONS, withElicitations } from '../../../../src/sdk/wire/mapping/elicitations.js';
import type { AgentEvent } from '../../../../src/port/types.js';

// A2A 1.1 (draft, ADR-002): the elicitations a Task or a TaskStatus carries, read from JSON, failing open.

describe('elicitations read from the wire', () => {
  it('reads the enum names and the short ones; keeps a state it does not know as unknown', () => {
    expect(
      elicitationsIn([
        { elicitationId: 'a', state: 'ELICITATION_STATE_BLOCKED', metadata: { kind: 'confirm' } },
        { elicitationId: 'b', state: 'waiting' },
        { elicitationId: 'c', state: 'ELICITATION_STATE_RESOLVED' },
        { elicitationId: 'd', state: 'ELICITATION_STATE_SNOOZED', metadata: 'not an object' },
        { elicitationId: 'e' },
      ]),
    ).toEqual([
      { id: 'a', state: 'blocked', metadata: { kind: 'confirm' } },
      { id: 'b', state: 'waiting' },
      { id: 'c', state: 'resolved' },
      { id: 'd', state: 'unknown' },
      { id: 'e', state: 'unknown' },
    ]);
  });

  it('leaves out what cannot be answered by id, and anything past the bound', () => {
    const bad = [null, 'x', { state: 'ELICITATION_STATE_BLOCKED' }, { elicitationId: '' }, { elicitationId: 'a\nb' }, { elicitationId: 7 }];
    expect(elicitationsIn(bad)).toEqual([]);
    expect(elicitationsIn('nope')).toBeUndefined();
    const many = Array.from({ length: MAX_ELICITATIONS + 10 }, (_, i) => ({ elicitationId: `e${i}`, state: 'BLOCKED' }));
    expect(elicitationsIn(many)).toHaveLength(MAX_ELICITATIONS);
  });

  it("puts a task's set, its status's delta and an update's delta on the event", () => {
    const task: AgentEvent = { kind: 'task', task: { id: 't', status: { state: 'input-required' }, artifacts: [] } };
    withElicitations(task, {
      task: {
        elicitations: [{ elicitationId: 'a', state: 'BLOCKED' }],
        status: { elicitations: [{ elicitationId: 'a', state: 'BLOCKED' }] },
      },
    });
    expect(task.kind === 'task' && task.task.elicitations).toEqual([{ id: 'a', state: 'blocked' }]);
    expect(task.kind === 'task' && task.task.status.elicitations).toEqual([{ id: 'a', state: 'blocked' }]);
    const status: AgentEvent = { kind: 'status', taskId: 't', status: { state: 'working' } };
    withElicitations(status, { statusUpdate: { status: { elicitations: [{ elicitationId: 'a', state: 'RESOLVED' }] } } });
    expect(status.kind === 'status' && status.status.elicitations).toEqual([{ id: 'a', state: 'resolved' }]);
    const plain: AgentEvent = { kind: 'status', taskId: 't', status: { state: 'working' } };
    expect(withElicitations(plain, { statusUpdate: { status: { state: 'TASK_STATE_WORKING' } } })).toEqual(plain);
    expect(plain.kind === 'status' && 'elicitations' in plain.status).toBe(false);
  });
});
