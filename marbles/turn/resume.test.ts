import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { A2APort, TaskPage } from '../../src/port/port.js';
import type { AgentEvent, Task } from '../../src/port/types.js';
import { ev, task, type FakePortCall } from '../../src/testing/index.js';
import { resumeThread } from '../../src/turn/resume.js';
import { runResume, runTurn } from '../../src/turn/turn.js';
import { a2aError, label, labels, marbles, options } from '../helpers.js';

const resume = (port: A2APort) => runResume(port, { taskId: 'T', contextId: 'C' }, options).pipe(map(label));
const hello = [{ artifactId: 'A', parts: [{ kind: 'text' as const, text: 'He' }] }];
const L = { ...labels, S: 'start', t: 'task T', a: 'text "He"', b: 'text "llo"', H: 'end completed "Hello"', x: 'text "ok"' };
const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const terminal = new A2AError({ kind: 'unsupported', code: -32004, message: 'the task is in a terminal state' });

describe('resuming a task another process started', () => {
  it('running: resubscribed at once, the reply from its snapshot, followed live to the end; nothing sent', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const resubscribe = cold('-s----l-c|', {
        s: ev.task('T', 'working', { contextId: 'C', artifacts: hello }),
        l: ev.artifact('T', 'A', 'llo', { append: true, lastChunk: true }),
        c: ev.status('T', 'completed'),
      });
      const resubscribeSubs = '^-------!';
      const expected = '        S(taw)b-(cH|)';
      const port = agent({ resubscribe });
      expectTurn(resume(port), expected, [[resubscribe, resubscribeSubs]], { values: L });
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'resubscribe']);
  });

  it('interrupted: the snapshot and the end with that outcome, so the next message continues the task', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-(s|)', { s: ev.task('T', 'input-required', { contextId: 'C', message: 'Which city?' }) });
      expectObservable(resume(agent({ resubscribe }))).toBe('S(tiqI|)', L);
    });
  });

  it('interrupted, on a server that holds the resubscription open (an SDK 1.x bus still up): its snapshot is its last word', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const resubscribe = cold('-s------', { s: ev.task('T', 'input-required', { contextId: 'C', message: 'Which city?' }) });
      expectObservable(resume(agent({ resubscribe }))).toBe('S(tiqI|)', L);
      expectSubscriptions(resubscribe.subscriptions).toBe('^!');
    });
  });

  it('finished: the resubscribe is refused, one GetTask brings the task and its reply', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold<never>('-#', undefined, terminal);
      const getTask = cold('            -(g|)', { g: task('T', 'completed', { contextId: 'C', message: 'ok' }) });
      const expected = '                Sp(tCxE|)';
      const port = agent({ resubscribe, getTask });
      expectObservable(resume(port)).toBe(expected, L);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'resubscribe', 'getTask']);
  });

  it('gone: the agent does not know the task; the error, nothing polled, nothing cancelled', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold<never>('-#', undefined, notFound);
      const port = agent({ resubscribe });
      expectObservable(resume(port)).toBe('S#', L, notFound);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'resubscribe']);
  });

  it('an agent that does not stream: the task is polled', () => {
    marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const getTask = cold('-(g|)', { g: task('T', 'completed', { contextId: 'C', message: 'ok' }) });
      expectObservable(resume(agent({ card: blockingCard, getTask }))).toBe('S(tCxE|)', L);
    });
  });

  it('left before its end: the resumed task is cancelled, once', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const resubscribe = cold('-s----', { s: ev.task('T', 'working', { contextId: 'C' }) });
      const cancel = cold('         (c|)', { c: task('T', 'canceled', { contextId: 'C' }) });
      const cancelSubs = '     ---(^!)';
      const port = agent({ resubscribe, cancel });
      expectObservable(resume(port), '^--!').toBe('S(tw', L);
      expectSubscriptions(cancel.subscriptions).toBe(cancelSubs);
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('left before any event: the task is known from the start, so it is cancelled too', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold<AgentEvent>('------');
      const cancel = cold('(c|)', { c: task('T', 'canceled', { contextId: 'C' }) });
      const port = agent({ resubscribe, cancel });
      expectObservable(resume(port), '^-!').toBe('S-', L);
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toHaveLength(1);
  });
});

describe("resuming a thread's reply in flight (ListTasks by its contextId)", () => {
  const thread = (port: A2APort) => resumeThread(port, 'C', options).pipe(map(label));
  const T = { ...L, s: 'start', t: 'task T2', N: 'end none ""' };

  it('the newest unfinished task is followed to its end; finished ones are passed over', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: { tasks: [task('T1', 'completed', { contextId: 'C' }), task('T2', 'working', { contextId: 'C' }), task('T3', 'working', { contextId: 'C' })] } });
      const resubscribe = cold(' -s----c|', { s: ev.task('T2', 'working', { contextId: 'C', artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }), c: ev.status('T2', 'completed') });
      const port = agent({ listTasks, resubscribe });
      expectObservable(thread(port)).toBe('s-(txw)(cE|)', T);
      return port.calls;
    });
    expect(calls).toEqual([
      { method: 'card' },
      { method: 'listTasks', contextId: 'C', options: { pageSize: 20, statusTimestampAfter: '1969-12-31T00:00:00.000Z' } },
      { method: 'card' },
      { method: 'resubscribe', taskId: 'T2' },
    ]);
  });

  it('an interrupted task: its end with that outcome', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: { tasks: [task('T2', 'input-required', { contextId: 'C' })] } });
      const resubscribe = cold(' -(s|)', { s: ev.task('T2', 'input-required', { contextId: 'C', message: 'Which city?' }) });
      expectObservable(thread(agent({ listTasks, resubscribe }))).toBe('s-(tiqI|)', T);
    });
  });

  it('nothing unfinished: an end that says so, no error, nothing else asked', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: { tasks: [task('T1', 'completed', { contextId: 'C' }), task('T0', 'canceled', { contextId: 'C' })] } });
      const port = agent({ listTasks });
      expectObservable(thread(port)).toBe('s(N|)', T);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'listTasks']);
  });

  it('an agent without ListTasks: an unsupported error after start', () => {
    marbles(({ agent, expectObservable }) => {
      const { listTasks: _none, ...port } = agent();
      expectObservable(thread(port)).toBe('(s#)', T, a2aError({ kind: 'unsupported', operation: 'list-tasks' }));
    });
  });

  it('a listed task the agent no longer knows: the error', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: { tasks: [task('T2', 'working', { contextId: 'C' })] } });
      const resubscribe = cold<never>(' -#', undefined, notFound);
      expectObservable(thread(agent({ listTasks, resubscribe }))).toBe('s-#', T, notFound);
    });
  });
});

describe("a thread's first message in a process continues a task the agent left waiting", () => {
  const look = { ...options, lookForWaitingTask: true };
  const sentTaskIds = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.taskId ?? null] : []));
  const answered = { s: 'start', t: 'task T9', c: 'status completed "ok"', h: 'text "ok"', E: 'end completed "ok"' };

  it('the newest unfinished task is interrupted: the message continues it', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: { tasks: [task('T9', 'input-required', { contextId: 'C' }), task('T1', 'completed', { contextId: 'C' })] } });
      const stream = cold('    -(c|)', { c: ev.task('T9', 'completed', { contextId: 'C', message: 'ok' }) });
      const port = agent({ listTasks, stream });
      expectObservable(runTurn(port, { text: 'Paris', contextId: 'C' }, look).pipe(map(label))).toBe('s-(tchE|)', answered);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'listTasks', 'stream']);
    expect(sentTaskIds(calls)).toEqual(['T9']);
  });

  for (const [what, tasks] of [
    ['nothing unfinished', [task('T1', 'completed', { contextId: 'C' })]],
    ['the newest unfinished task is running, not waiting', [task('T2', 'working', { contextId: 'C' }), task('T9', 'input-required', { contextId: 'C' })]],
  ] as const) {
    it(`${what}: the message starts a task`, () => {
      const calls = marbles(({ cold, agent, expectObservable }) => {
        const listTasks = cold('-(l|)', { l: { tasks: [...tasks] } });
        const stream = cold('    -(m|)', { m: ev.message('ok') });
        const port = agent({ listTasks, stream });
        expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, look).pipe(map(label))).toBe('s-(hE|)', answered);
        return port.calls;
      });
      expect(sentTaskIds(calls)).toEqual([null]);
    });
  }

  it('a failed ListTasks costs nothing but its time: the message starts a task', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold<TaskPage>('-#', undefined, new A2AError({ kind: 'http', status: 503, retryable: true, message: 'busy' }));
      const stream = cold('    -(m|)', { m: ev.message('ok') });
      const port = agent({ listTasks, stream });
      expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, look).pipe(map(label))).toBe('s-(hE|)', answered);
      return port.calls;
    });
    expect(sentTaskIds(calls)).toEqual([null]);
  });

  it('turned off by the policy (continueInterrupted: false), or not asked for: no ListTasks', () => {
    for (const ladder of [{ ...look, policy: { ...look.policy, continueInterrupted: false } }, options]) {
      const calls = marbles(({ cold, agent, expectObservable }) => {
        const stream = cold('-(m|)', { m: ev.message('ok') });
        const port = agent({ stream });
        expectObservable(runTurn(port, { text: 'hi', contextId: 'C' }, ladder).pipe(map(label))).toBe('s(hE|)', answered);
        return port.calls;
      });
      expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
    }
  });
});
