import { describe, expect, it } from 'vitest';
import { answerTo } from '../../src/client/answer.js';
import type { Interrupt } from '../../src/port/events.js';

// `answerTo`: an interrupt answered by value, as the fields of the thread's next turn.

const asked: Interrupt = {
  kind: 'input',
  taskId: 't1',
  text: 'Which city?',
  elicitations: [
    { id: 'e1', state: 'blocked' },
    { id: 'e2', state: 'waiting' },
    { id: 'e3', state: 'resolved' },
    { id: 'e4', state: 'unknown' },
  ],
  generation: 3,
};

describe('answerTo', () => {
  it('continues the task, names the open requests and the generation', () => {
    expect(answerTo(asked, 'Paris')).toEqual({ text: 'Paris', taskId: 't1', elicitationIds: ['e1', 'e2'], ifGenerationMatch: 3 });
  });

  it('names the requests the reply names, none when it names none, and carries its data and files', () => {
    const data = [{ data: { approved: true } }];
    expect(answerTo(asked, { data, elicitationIds: ['e2'] })).toEqual({
      text: '',
      data,
      taskId: 't1',
      elicitationIds: ['e2'],
      ifGenerationMatch: 3,
    });
    expect(answerTo(asked, { text: 'x', elicitationIds: [] })).toEqual({ text: 'x', taskId: 't1', ifGenerationMatch: 3 });
  });

  it("a 1.0 agent's interrupt (no requests, no generation, or 0): only the task", () => {
    expect(answerTo({ kind: 'auth', taskId: 't2', text: '' }, 'done')).toEqual({ text: 'done', taskId: 't2' });
    expect(answerTo({ kind: 'input', taskId: 't2', text: '', generation: 0, elicitations: [] }, 'x')).toEqual({ text: 'x', taskId: 't2' });
  });
});
