import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { TurnEvent } from '../../../src/port/events.js';
import type { TaskPage } from '../../../src/port/port.js';
import type { AgentMessage, Task } from '../../../src/port/types.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { resumeMessage } from '../../../src/turn/resume.js';
import { runTurn } from '../../../src/turn/turn.js';
import { a2aError, label, labels, marbles, options, withPolicy } from '../../helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const L = { ...labels, N: 'end not-received ""', T: 'task T2', D: 'end completed "done"', x: 'text "done"' };
const sentIds = (calls: FakePortCall[]) => calls.flatMap((c) => ('message' in c ? [c.message.messageId] : []));

/** A task of thread C whose history holds the user messages `ids`. */
function carrying(id: string, state: Task['status']['state'], ...ids: string[]): Task {
  const history: AgentMessage[] = ids.map((messageId) => ({ role: 'user', messageId, parts: [{ kind: 'text', text: 'hi' }] }));
  return { ...task(id, state, { contextId: 'C', message: 'done' }), history };
}
const page = (tasks: Task[], nextPageToken?: string): TaskPage => (nextPageToken ? { tasks, nextPageToken } : { tasks });

describe("a message's id", () => {
  it("is the caller's when given, named by start, and the same on every send of the turn (a refused stream's fallback)", () => {
    let start: TurnEvent | undefined;
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold<never>('-#', undefined, new A2AError({ kind: 'unsupported', status: 501, message: 'no streaming' }));
      const send = cold('         -(m|)', { m: ev.message('ok') });
      const port = agent({ stream, send });
      const turn$ = runTurn(port, { text: 'hi', contextId: 'C', messageId: 'm-1' }, options);
      expectObservable(
        turn$.pipe(
          map((event) => {
            if (event.type === 'start') start = event;
            return label(event);
          }),
        ),
      ).toBe('sf(hE|)', labels);
      return port.calls;
    });
    expect(start).toEqual({ type: 'start', contextId: 'C', messageId: 'm-1' });
    expect(sentIds(calls)).toEqual(['m-1', 'm-1']);
  });

  it('is a fresh UUID otherwise, one per turn', () => {
    const ids = [0, 1].map(() => {
      const calls = marbles(({ cold, agent, expectObservable }) => {
        const port = agent({ stream: cold('-(m|)', { m: ev.message('ok') }) });
        expectObservable(runTurn(port, { text: 'hi' }, options).pipe(map(label))).toBe('s(hE|)', labels);
        return port.calls;
      });
      return sentIds(calls)[0];
    });
    expect(ids[0]).toMatch(UUID);
    expect(ids[1]).toMatch(UUID);
    expect(ids[0]).not.toBe(ids[1]);
  });
});

describe('a message whose turn was cut short: the thread is asked for it (ListTasks with history)', () => {
  const find = (port: Parameters<typeof resumeMessage>[0]) => resumeMessage(port, 'C', 'm-7', options).pipe(map(label));

  it('the task that carries it is followed to its end, whatever page it is on', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = [
        cold('-(l|)', { l: page([carrying('T1', 'completed', 'm-5'), carrying('T3', 'working', 'm-6')], 'p2') }),
        cold('-(l|)', { l: page([carrying('T2', 'working', 'm-1', 'm-7')], 'p3') }),
      ];
      const resubscribe = cold('-s----c|', {
        s: ev.task('T2', 'working', { contextId: 'C' }),
        c: ev.task('T2', 'completed', { contextId: 'C', message: 'done' }),
      });
      const port = agent({ listTasks, resubscribe });
      expectObservable(find(port)).toBe('s--(Tw)-(cxD|)', { ...L, c: 'status completed "done"' });
      return port.calls;
    });
    const lists = calls.flatMap((c) => (c.method === 'listTasks' ? [c.options] : []));
    expect(lists.map((o) => [o?.historyLength, o?.pageToken ?? null])).toEqual([
      [100, null],
      [100, 'p2'],
    ]);
    expect(calls.filter((c) => c.method === 'resubscribe')).toEqual([{ method: 'resubscribe', taskId: 'T2' }]);
  });

  it('no task carries it, on the last page: the agent never got it (outcome not-received), nothing followed', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([carrying('T1', 'completed', 'm-5')]) });
      const port = agent({ listTasks });
      expectObservable(find(port)).toBe('s(N|)', L);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'listTasks']);
  });

  it("another thread's task that carries the id is not the message's (skipped)", () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stranger = { ...carrying('TB', 'working', 'm-7'), contextId: 'B' };
      const listTasks = cold('-(l|)', { l: page([stranger]) });
      expectObservable(find(agent({ listTasks }))).toBe('s(N|)', L);
    });
  });

  it('a listing the bounds cut short cannot tell: it ends unknown (the message stays pending), never an error, never not-received', () => {
    let end: TurnEvent | undefined;
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([carrying('T1', 'completed', 'm-5')], 'p2') });
      const bounded = resumeMessage(agent({ listTasks }), 'C', 'm-7', { ...options, maxPages: 1 }).pipe(
        map((event) => {
          if (event.type === 'end') end = event;
          return label(event);
        }),
      );
      expectObservable(bounded).toBe('s(U|)', { ...L, U: 'end unknown ""' });
    });
    expect(end).toEqual({ type: 'end', outcome: 'unknown', text: '', contextId: 'C', messageId: 'm-7' });
  });

  it('not found: listed again at the poll pace until notReceivedAfterMs since sentAt has passed, then not-received', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([carrying('T1', 'completed', 'm-5')]) });
      const port = agent({ listTasks });
      // Sent 5 ms before virtual time 0, a grace of 35: it ends at 30. Listed at 0, 11 and 22 (10 ms apart, the
      // poll's pace, each answering 1 ms later), and once more when the grace ends (at 30): not-received at 31.
      const resumed = resumeMessage(port, 'C', 'm-7', { ...withPolicy({ notReceivedAfterMs: 35 }), sentAt: -5 }).pipe(map(label));
      expectObservable(resumed).toBe(`s${'-'.repeat(30)}(N|)`, L);
      return port.calls;
    });
    const lists = calls.flatMap((c) => (c.method === 'listTasks' ? [c.options] : []));
    expect(lists).toHaveLength(4);
    // sentAt bounds the listing: the tasks changed since it, less the policy's clockSkewMs (60 s by default), not a day's.
    expect(lists[0]?.statusTimestampAfter).toBe(new Date(-5 - 60_000).toISOString());
  });

  it('found on a later listing within the grace (the agent stored its task late): followed, nothing sent again', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const listTasks = [
        cold('-(l|)', { l: page([carrying('T1', 'completed', 'm-5')]) }),
        cold('-(l|)', { l: page([carrying('T2', 'working', 'm-7'), carrying('T1', 'completed', 'm-5')]) }),
      ];
      const resubscribe = cold('-s----c|', {
        s: ev.task('T2', 'working', { contextId: 'C' }),
        c: ev.task('T2', 'completed', { contextId: 'C', message: 'done' }),
      });
      const port = agent({ listTasks, resubscribe });
      const resumed = resumeMessage(port, 'C', 'm-7', withPolicy({ notReceivedAfterMs: 1_000 })).pipe(map(label));
      expectObservable(resumed).toBe(`s${'-'.repeat(12)}(Tw)-(cxD|)`, { ...L, c: 'status completed "done"' });
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'listTasks')).toHaveLength(2);
    expect(calls.some((c) => c.method === 'send' || c.method === 'stream')).toBe(false);
  });

  it('without sentAt the grace runs from the resume: with the default (10 s), nothing is called not-received sooner', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([]) });
      const { notReceivedAfterMs: _zero, ...policy } = options.policy as Record<string, unknown>;
      const resumed = resumeMessage(agent({ listTasks }), 'C', 'm-7', { ...options, policy }).pipe(map(label));
      expectObservable(resumed, '^ 9999ms !').toBe('s', L);
    });
  });

  it('an agent that lists its tasks without their history cannot tell either: unsupported, never not-received', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page([task('T1', 'completed', { contextId: 'C' }), carrying('T0', 'completed', 'm-5')]) });
      const blind = resumeMessage(agent({ listTasks }), 'C', 'm-7', options).pipe(map(label));
      expectObservable(blind).toBe('s#', L, a2aError({ kind: 'unsupported', message: expect.stringContaining('without the messages') }));
    });
  });

  it('an agent without ListTasks (v0.3): unsupported, it cannot tell either', () => {
    marbles(({ agent, expectObservable }) => {
      const { listTasks: _none, ...port } = agent();
      expectObservable(find(port)).toBe('(s#)', L, a2aError({ kind: 'unsupported', operation: 'list-tasks' }));
    });
  });
});
