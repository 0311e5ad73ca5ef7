import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { A2APort, TaskPage } from '../../src/port/port.js';
import { ev, task, type FakePortCall } from '../../src/testing/index.js';
import { resumeThread } from '../../src/turn/resume.js';
import { runResume, runTurn } from '../../src/turn/turn.js';
import { a2aError, label, labels, marbles, options, withPolicy } from '../helpers.js';

// Thread A's contextId is 'C'; 'B' is another thread's.
const ours = (id: string, state: Parameters<typeof task>[1]) => task(id, state, { contextId: 'C' });
const theirs = (id: string, state: Parameters<typeof task>[1]) => task(id, state, { contextId: 'B', message: 'B secret' });
const foreign = a2aError({ kind: 'foreign-task', operation: 'turn' });
const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const L = { ...labels, S: 'start', N: 'end none ""', t: 'task T', T: 'task T2', O: 'text "ours"', D: 'end completed "ours"' };
const page = (tasks: ReturnType<typeof task>[], nextPageToken?: string): TaskPage => (nextPageToken ? { tasks, nextPageToken } : { tasks });
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);
const tokens = (calls: FakePortCall[]) => calls.flatMap((c) => (c.method === 'listTasks' ? [c.options?.pageToken ?? null] : []));

describe("a task reached by id on a thread must be the thread's", () => {
  const resume = (port: A2APort) => runResume(port, { taskId: 'T', contextId: 'C' }, options).pipe(map(label));

  it("another thread's task: the error at its snapshot, nothing of it shown, nothing cancelled", () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const resubscribe = cold('-s----', { s: ev.task('T', 'working', { contextId: 'B', message: 'B secret' }) });
      const port = agent({ resubscribe });
      expectObservable(resume(port)).toBe('S#', L, foreign);
      expectSubscriptions(resubscribe.subscriptions).toBe('^!');
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'resubscribe']);
  });

  it('a first event that names no conversation is not shown either (the agent does not say whose it is)', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s----', { s: ev.status('T', 'working', 'B secret') });
      const port = agent({ resubscribe });
      expectObservable(resume(port)).toBe('S#', L, a2aError({ kind: 'foreign-task', message: expect.stringContaining('no contextId') }));
      return port.calls;
    });
    expect(methods(calls)).not.toContain('cancel');
  });

  it('a non-streaming agent: the polled snapshot is checked the same way', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const getTask = cold('-(g|)', { g: theirs('T', 'working') });
      const port = agent({ card: blockingCard, getTask });
      expectObservable(resume(port)).toBe('S#', L, foreign);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'getTask']);
  });

  it("the thread's own task: shown, and later events that name no conversation are its own", () => {
    marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s----a-c|', {
        s: ev.task('T', 'working', { contextId: 'C' }),
        a: ev.artifact('T', 'A', 'ours', { lastChunk: true }),
        c: ev.status('T', 'completed'),
      });
      expectObservable(resume(agent({ resubscribe }))).toBe('S(tw)-O-(cD|)', L);
    });
  });

  it('without a thread (no contextId: the caller vouches for the task) it is followed as it is', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s----c|', { s: ev.task('T', 'working', { contextId: 'B' }), c: ev.status('T', 'completed') });
      expectObservable(runResume(agent({ resubscribe }), { taskId: 'T' }, options).pipe(map(label))).toBe('S(tw)-c(U|)', L);
    });
  });
});

describe("a caller's task id on a thread's message is checked before the message goes", () => {
  const followUp = { text: 'Paris', contextId: 'C', taskId: 'T0' };
  const checked = { ...options, taskFromCaller: true };
  const sent = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []));

  it("another thread's task: a foreign-task error, nothing sent", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const getTask = cold('-(g|)', { g: theirs('T0', 'input-required') });
      const port = agent({ getTask });
      expectObservable(runTurn(port, followUp, checked).pipe(map(label))).toBe('s#', L, foreign);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'getTask']);
  });

  it("the thread's own waiting task: the message continues it", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const getTask = cold('-(g|)', { g: ours('T0', 'input-required') });
      const stream = cold('  -(m|)', { m: ev.message('ok') });
      const port = agent({ getTask, stream });
      expectObservable(runTurn(port, followUp, checked).pipe(map(label))).toBe('s-(hE|)', L);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'getTask', 'stream']);
    expect(sent(calls)).toEqual(['T0']);
  });

  it('a task that finished, or that the agent does not know: the message goes without it, after a task-gone note', () => {
    for (const getTask$ of ['finished', 'unknown'] as const) {
      const calls = marbles(({ cold, agent, expectObservable }) => {
        const getTask = getTask$ === 'finished' ? cold('-(g|)', { g: ours('T0', 'completed') }) : cold<never>('-#', undefined, notFound);
        const stream = cold('  -(m|)', { m: ev.message('ok') });
        const port = agent({ getTask, stream });
        const gone = getTask$ === 'finished' ? 'G' : 'g';
        expectObservable(runTurn(port, followUp, checked).pipe(map(label))).toBe(`s${gone}(hE|)`, L);
        return port.calls;
      });
      expect(sent(calls)).toEqual([null]);
    }
  });

  it('a task the thread itself remembered is not checked again (no GetTask)', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ stream });
      expectObservable(runTurn(port, followUp, options).pipe(map(label))).toBe('s(hE|)', L);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });
});

describe("ListTasks answers are checked task by task, and followed page by page", () => {
  const thread = (port: A2APort) => resumeThread(port, 'C', options).pipe(map(label));

  it("an agent that ignores the contextId filter: a stranger's unfinished task is skipped, never subscribed", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([theirs('TB', 'working'), ours('T2', 'working')]) });
      const resubscribe = cold(' -s----c|', { s: ev.task('T2', 'working', { contextId: 'C' }), c: ev.status('T2', 'completed') });
      const port = agent({ listTasks, resubscribe });
      expectObservable(thread(port)).toBe('s-(Tw)-c(U|)', L);
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'resubscribe')).toEqual([{ method: 'resubscribe', taskId: 'T2' }]);
  });

  it('only strangers unfinished: nothing to follow', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([theirs('TB', 'working'), task('TX', 'working')]) });
      expectObservable(thread(agent({ listTasks }))).toBe('s(N|)', L);
    });
  });

  it('fewer tasks per page than asked: the next pages are read until the running task', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = [
        cold('-(l|)', { l: page([ours('T1', 'completed')], 'p2') }),
        cold('-(l|)', { l: page([ours('T0', 'canceled')], 'p3') }),
        cold('-(l|)', { l: page([ours('T2', 'working')], 'p4') }),
      ];
      const resubscribe = cold('-s----c|', { s: ev.task('T2', 'working', { contextId: 'C' }), c: ev.status('T2', 'completed') });
      const port = agent({ listTasks, resubscribe });
      expectObservable(thread(port)).toBe('s---(Tw)-c(U|)', L);
      return port.calls;
    });
    // The page after the one that had it is never asked for.
    expect(tokens(calls)).toEqual([null, 'p2', 'p3']);
  });

  it('a repeated page token ends the listing (no loop)', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const again = cold('-(l|)', { l: page([ours('T0', 'completed')], 'p2') });
      const port = agent({ listTasks: [cold('-(l|)', { l: page([ours('T1', 'completed')], 'p2') }), again] });
      expectObservable(thread(port)).toBe('s-(N|)', L);
      return port.calls;
    });
    expect(tokens(calls)).toEqual([null, 'p2']);
  });

  it('so does the page bound', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const pages = Array.from({ length: 20 }, (_, n) => cold('-(l|)', { l: page([ours(`T${n}`, 'completed')], `p${n + 1}`) }));
      const port = agent({ listTasks: pages });
      expectObservable(resumeThread(port, 'C', { ...options, maxPages: 3 }).pipe(map(label))).toBe('s--(N|)', L);
      return port.calls;
    });
    expect(tokens(calls)).toEqual([null, 'p1', 'p2']);
  });
});

describe("a thread's first-message lookup has a deadline of its own", () => {
  // Shorter than a ListTasks page's own bound (poll.requestTimeoutMs, 20 here).
  const look = { ...withPolicy({ lookupTimeoutMs: 15 }), lookForWaitingTask: true };

  it('a ListTasks that does not answer in time: the message goes without it, at the deadline', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const listTasks = cold<TaskPage>('-------');
      const stream = cold('-(m|)', { m: ev.message('ok') });
      const port = agent({ listTasks, stream });
      expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, look).pipe(map(label))).toBe('s 15ms (hE|)', L);
      expectSubscriptions(listTasks.subscriptions).toBe('^ 14ms !');
      return port.calls;
    });
    expect(calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []))).toEqual([null]);
  });

  it("a stranger's waiting task in the answer is never continued", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([theirs('TB', 'input-required')]) });
      const stream = cold('    -(m|)', { m: ev.message('ok') });
      const port = agent({ listTasks, stream });
      expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, look).pipe(map(label))).toBe('s-(hE|)', L);
      return port.calls;
    });
    expect(calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []))).toEqual([null]);
  });
});
