import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { RequestEvent, TurnEvent } from '../../src/port/events.js';
import type { A2APort } from '../../src/port/port.js';
import type { AgentMessage, SendResult, Task } from '../../src/port/types.js';
import { TurnRenderer } from '../../src/render/renderer.js';
import { initialTurnView, reduceTurn } from '../../src/render/view.js';
import { agentMessage, ev, task, type FakePortCall } from '../../src/testing/index.js';
import { TurnTask } from '../../src/turn/task.js';
import { runResume, runTurn } from '../../src/turn/turn.js';
import { label, labels, marbles, options } from '../helpers.js';

/** The person's message that started the task: a text and a file. */
const PDF = Uint8Array.from([0x25, 0x50, 0x44, 0x46]);
const asked: AgentMessage = {
  role: 'user',
  messageId: 'm1',
  parts: [
    { kind: 'text', text: 'book it' },
    { kind: 'file', name: 'passport.pdf', mediaType: 'application/pdf', bytes: PDF },
  ],
};
/** A snapshot of task T on thread C with the history the agent kept. */
const withHistory = (state: Task['status']['state'], history: AgentMessage[], message?: string): Task => ({
  ...task('T', state, { contextId: 'C', ...(message === undefined ? {} : { message }) }),
  history,
});
const snap = (snapshot: Task): SendResult => ({ kind: 'task', task: snapshot });
const L = { ...labels, S: 'start', Q: 'request "book it" +1', k: 'request "hi"' };
const resume = (port: A2APort) => runResume(port, { taskId: 'T', contextId: 'C' }, options).pipe(map(label));
const getTasks = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'getTask');
const terminal = new A2AError({ kind: 'unsupported', code: -32004, message: 'the task is in a terminal state' });

describe("a resumed turn shows the person's message its task answers", () => {
  it("from the resubscription's snapshot, right after the task event: no request more", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s------c|', {
        s: snap(withHistory('working', [asked, agentMessage('Thinking…')])),
        c: ev.status('T', 'completed', 'ok'),
      });
      const port = agent({ resubscribe });
      expectObservable(resume(port)).toBe('S(tQw)--(ChE|)', L);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'resubscribe']);
  });

  it('the newest of the person’s messages: a question answered since, the answer is what the task works on', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const history = [asked, agentMessage('Which city?'), agentMessage('hi', 'user')];
      const resubscribe = cold('-s------c|', { s: snap(withHistory('working', history)), c: ev.status('T', 'completed', 'ok') });
      expectObservable(resume(agent({ resubscribe }))).toBe('S(tkw)--(ChE|)', L);
    });
  });

  it("an agent that does not stream: the resume's first GetTask asks for 10 messages of history, the next ones for none", () => {
    const calls = marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const getTask = [
        cold('-(g|)', { g: withHistory('working', [asked]) }),
        cold('          -(g|)', { g: withHistory('completed', [], 'ok') }),
      ];
      const port = agent({ card: blockingCard, getTask });
      expectObservable(resume(port)).toBe('S(tQw)------(ChE|)', L);
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([
      { method: 'getTask', taskId: 'T', historyLength: 10 },
      { method: 'getTask', taskId: 'T' },
    ]);
  });

  it("a finished task whose resubscription is refused: the one GetTask asks for the history, and the request comes with the reply", () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold<never>('-#', undefined, terminal);
      const getTask = cold('            -(g|)', { g: withHistory('completed', [asked, agentMessage('ok')], 'ok') });
      const port = agent({ resubscribe, getTask });
      expectObservable(resume(port)).toBe('Sp(tQCxE|)', { ...L, x: 'text "ok"' });
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([{ method: 'getTask', taskId: 'T', historyLength: 10 }]);
  });

  it('a snapshot without history: no request event, and no request more to look for it', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s-----c|', { s: ev.task('T', 'working', { contextId: 'C' }), c: ev.status('T', 'completed', 'ok') });
      const port = agent({ resubscribe });
      expectObservable(resume(port)).toBe('S(tw)--(ChE|)', L);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'resubscribe']);
  });

  it("another thread's task: refused at its snapshot, its person's message never shown", () => {
    marbles(({ cold, agent, expectObservable }) => {
      const resubscribe = cold('-s--', { s: snap({ ...withHistory('working', [asked]), contextId: 'B' }) });
      expectObservable(resume(agent({ resubscribe }))).toBe('S#', L, expect.objectContaining({ kind: 'foreign-task' }));
    });
  });

  it('the view keeps it: a UI shows the message above the reply', () => {
    const request: RequestEvent = { type: 'request', text: 'book it', messageId: 'm1' };
    const view = [{ type: 'start' } as TurnEvent, { type: 'task', taskId: 'T' } as TurnEvent, request].reduce(reduceTurn, initialTurnView);
    expect(view.request).toEqual({ text: 'book it', messageId: 'm1' });
  });
});

describe('a turn that sends a message is as it was (the hot path)', () => {
  it("a stream whose snapshot carries the user's message: no request event", () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('-s-----c|', { s: snap(withHistory('working', [asked])), c: ev.status('T', 'completed', 'ok') });
      expectObservable(runTurn(agent({ stream }), { text: 'book it', contextId: 'C' }, options).pipe(map(label))).toBe('s(tw)--(ChE|)', L);
    });
  });

  it("a blocking send that returned early: its polls' GetTasks ask for no history", () => {
    const calls = marbles(({ cold, blockingCard, agent, expectObservable }) => {
      const send = cold('-(s|)', { s: snap(withHistory('working', [asked])) });
      const getTask = cold('-(g|)', { g: withHistory('completed', [], 'ok') });
      const port = agent({ card: blockingCard, send, getTask });
      expectObservable(runTurn(port, { text: 'book it' }, options).pipe(map(label))).toBe('s(twP)------(ChE|)', L);
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([{ method: 'getTask', taskId: 'T' }]);
  });
});

it("the person's file in the request event is the mapping's own bytes, never copied", () => {
  const facts = new TurnTask({ contextId: 'C', resumes: 'T' });
  const renderer = new TurnRenderer(facts);
  const snapshot = { kind: 'task' as const, task: withHistory('working', [asked]) };
  facts.observe(snapshot);
  const request = renderer.push(snapshot).find((event): event is RequestEvent => event.type === 'request');
  const file = request?.attachments?.[0];
  expect(file?.kind === 'file' && file.bytes).toBe(asked.parts[1]!.kind === 'file' ? asked.parts[1]!.bytes : undefined);
  expect(request).toMatchObject({ text: 'book it', messageId: 'm1', attachments: [{ kind: 'file', name: 'passport.pdf', size: 4 }] });
});
