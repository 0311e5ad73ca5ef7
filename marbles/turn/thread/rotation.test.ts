import { describe, expect, it } from 'vitest';
import type { TaskPage } from '../../../src/port/port.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { labels, marbles, turn, withPolicy } from '../../helpers.js';

// The thread's contextId is 'C' under the current secret; 'P1' and 'P2' under the previous ones (newest first).
const rotated = { ...withPolicy({ lookupTimeoutMs: 5 }), previousContexts: ['P1', 'P2'] };
const message = { text: 'hi', contextId: 'C' };
const page = (...tasks: ReturnType<typeof task>[]): TaskPage => ({ tasks });
const empty = page();
const L = { ...labels, m: 'context C -> P1', M: 'context C -> P2' };
const listed = (calls: FakePortCall[]) => calls.flatMap((c) => (c.method === 'listTasks' ? [`${c.contextId}/${c.options?.pageSize}`] : []));
const sentTo = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [[c.message.contextId, c.message.taskId ?? null]] : []));

describe('after the identity secret was rotated, a thread finds its conversation under a previous secret', () => {
  // Each case: what each ListTasks answers, call by call (the last repeats): `e` no task, `c` a task
  // under C, `q` one under P1, `p` one under P2, `x` a stranger's; the turn; the contexts listed
  // (when the case pins them) and where the message went.
  const lookups = [
    {
      title: 'the current contextId has tasks: the message goes there, previous ones are not asked',
      listTasks: ['-(c|)'],
      expected: 's-(hE|)',
      listed: ['C/1'],
      sentTo: [['C', null]],
    },
    {
      title: 'nothing under the current one: the first previous one with a task wins, announced before the message goes',
      listTasks: ['-(e|)', '-(e|)', '-(p|)'],
      expected: 's--M(hE|)',
      listed: ['C/1', 'P1/1', 'P2/1'],
      sentTo: [['P2', null]],
    },
    {
      title: 'an agent that ignores the contextId filter: a stranger listed under a previous one does not move the thread',
      listTasks: ['-(x|)'],
      expected: 's---(hE|)',
      listed: ['C/1', 'P1/1', 'P2/1'],
      sentTo: [['C', null]],
    },
    {
      title: 'a lookup that does not answer within lookupTimeoutMs: the current contextId, and the message is not held longer',
      listTasks: ['-(e|)', '------(q|)'],
      expected: 's-----(hE|)',
      sentTo: [['C', null]],
    },
  ];
  for (const { title, listTasks: answers, expected, listed: contexts, sentTo: sent } of lookups) {
    it(title, () => {
      const calls = marbles(({ cold, agent, expectObservable }) => {
        const pages = {
          e: empty,
          c: page(task('T1', 'completed', { contextId: 'C' })),
          q: page(task('T', 'completed', { contextId: 'P1' })),
          p: page(task('T', 'completed', { contextId: 'P2' })),
          x: page(task('X', 'completed', { contextId: 'someone-else' })),
        };
        const listTasks = answers.map((answer) => cold(answer, pages));
        const stream = cold('-(m|)', { m: ev.message('ok') });
        const port = agent({ listTasks, stream });
        expectObservable(turn(port, message, rotated)).toBe(expected, L);
        return port.calls;
      });
      if (contexts) expect(listed(calls)).toEqual(contexts);
      expect(sentTo(calls)).toEqual(sent);
    });
  }

  it('an agent without ListTasks (v0.3): the current contextId at once', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ stream });
      delete (port as { listTasks?: unknown }).listTasks;
      expectObservable(turn(port, message, rotated)).toBe('s(hE|)', L);
      return port.calls;
    });
    expect(sentTo(calls)).toEqual([['C', null]]);
  });

  it("with the waiting-task lookup, the task left waiting is looked for in the conversation found", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = [
        cold('-(l|)', { l: empty }),
        cold('-(l|)', { l: page(task('T1', 'input-required', { contextId: 'P1' })) }),
        cold('-(l|)', { l: page(task('T1', 'input-required', { contextId: 'P1' })) }),
      ];
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ listTasks, stream });
      expectObservable(turn(port, message, { ...rotated, lookForWaitingTask: true })).toBe('s-m-(hE|)', L);
      return port.calls;
    });
    expect(listed(calls).slice(0, 2)).toEqual(['C/1', 'P1/1']);
    expect(sentTo(calls)).toEqual([['P1', 'T1']]);
  });

  it("a caller's task under a previous secret's contextId is the thread's: the message goes there, with the task", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const getTask = cold('-(g|)', { g: task('T0', 'input-required', { contextId: 'P2' }) });
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ getTask, stream });
      const followUp = { ...message, taskId: 'T0' };
      expectObservable(turn(port, followUp, { ...rotated, taskFromCaller: true })).toBe('sM(hE|)', L);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'getTask', 'stream']);
    expect(sentTo(calls)).toEqual([['P2', 'T0']]);
  });
});
