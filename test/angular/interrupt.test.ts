/** a2aConversation's interrupt and answer() over the fake port (the kit: angular-kit.ts). */
import { of, Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { ANSWERED_ALREADY, answeredAlready, type Interrupt } from '../../src/angular/index.js';
import { A2AError } from '../../src/errors.js';
import type { AgentEvent, Elicitation, OutgoingMessage, Task } from '../../src/port/types.js';
import { agentMessage, createFakePort, ev, task, testCard, type FakePort } from '../../src/testing/index.js';
import { conversation, flush, methods, streaming, useInjectorCleanup } from './angular-kit.js';
import { withContext } from '../fake-events.js';

useInjectorCleanup();

const QUESTION = 'Which city?';
const ASKED: Elicitation[] = [
  { id: 'T/q1', state: 'blocked', metadata: { kind: 'answer' } },
  { id: 'T/q0', state: 'resolved' },
];

/** Task T asks the question (A2A 1.1: its requests for input, at generation 3). */
const asking = (contextId: string): AgentEvent => ({
  kind: 'status',
  taskId: 'T',
  contextId,
  status: { state: 'input-required', message: agentMessage(QUESTION), elicitations: ASKED },
  generation: 3,
});

/**
 * A port whose n-th stream is `streams[n - 1]` (its events carrying the conversation's contextId), whose
 * GetTask answers task T input-required at `generation` in that conversation (the check before an answer).
 */
function answerablePort(generation: number, ...streams: Subject<AgentEvent>[]): { port: FakePort; context: () => string } {
  let context = '';
  const port = createFakePort({
    card: () => of(testCard({ protocolVersion: '1.1' })),
    stream: (message, n) => {
      context = message.contextId ?? '';
      return streams[n - 1]!;
    },
    getTask: (taskId) => of<Task>({ ...task(taskId, 'input-required', { contextId: context, message: QUESTION }), generation }),
    cancel: (taskId) => of<Task>(task(taskId, 'canceled')),
  });
  return { port, context: () => context };
}

/** The messages the port streamed, in order. */
const streamed = (port: FakePort): OutgoingMessage[] => port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));

/** A conversation whose first turn ended on the question; `generation`: the task's at the check before an answer. */
async function asked(generation = 3, ...more: Subject<AgentEvent>[]) {
  const question = new Subject<AgentEvent>();
  const { port, context } = answerablePort(generation, question, ...more);
  const chat = conversation(port);
  chat.send('input');
  await streaming(port);
  question.next(withContext(ev.task('T', 'working'), context()));
  expect(chat.interrupt()).toBeUndefined(); // running: no question yet
  question.next(asking(context()));
  question.complete();
  await flush();
  return { port, chat, context };
}

describe('a2aConversation: the interrupt of a turn that waits', () => {
  it('is the end event’s: kind, text, task, elicitations and generation, set with the ended view', async () => {
    const { chat, context } = await asked();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'input-required', taskId: 'T' });
    expect(chat.interrupt()).toEqual({
      kind: 'input',
      taskId: 'T',
      contextId: context(),
      text: QUESTION,
      message: agentMessage(QUESTION),
      elicitations: ASKED,
      generation: 3,
    });
    expect(chat.answeredAlready()).toBe(false);
  });

  it('answer() sends answerTo’s fields (the task, the open requests, the generation); the interrupt clears as it starts', async () => {
    const answering = new Subject<AgentEvent>();
    const { port, chat, context } = await asked(3, answering);
    chat.answer(chat.interrupt()!, 'Paris');
    await streaming(port, 2);
    expect(chat.interrupt()).toBeUndefined();
    expect(chat.view()).toMatchObject({ phase: 'running', taskId: 'T' });
    expect(streamed(port)[1]).toMatchObject({ text: 'Paris', taskId: 'T', elicitationIds: ['T/q1'], ifGenerationMatch: 3 });
    expect(methods(port).slice(-2)).toEqual(['getTask', 'stream']); // the task checked first
    answering.next(withContext(ev.artifact('T', 'a', 'Paris it is.', { lastChunk: true }), context()));
    answering.next(withContext(ev.status('T', 'completed'), context()));
    answering.complete();
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'completed', reply: 'Paris it is.', taskId: 'T' });
    expect(chat.interrupt()).toBeUndefined();
    expect(chat.answeredAlready()).toBe(false);
  });

  it('a reply of its own names its own requests and carries data', async () => {
    const answering = new Subject<AgentEvent>();
    const { port, chat } = await asked(3, answering);
    chat.answer(chat.interrupt()!, { text: '', data: [{ data: { city: 'Paris' } }], elicitationIds: ['T/q0'] });
    await streaming(port, 2);
    expect(streamed(port)[1]).toMatchObject({ text: '', taskId: 'T', data: [{ data: { city: 'Paris' } }], elicitationIds: ['T/q0'] });
  });

  it('answered already, by the client’s check (the task moved on): a conflict in the view, answeredAlready, nothing sent', async () => {
    const { port, chat } = await asked(4);
    chat.answer(chat.interrupt()!, 'Rome');
    await vi.waitFor(() => expect(chat.view()?.phase).toBe('error'));
    expect(chat.view()?.error).toMatchObject({ kind: 'conflict', retryable: false });
    expect(chat.answeredAlready()).toBe(true);
    expect(answeredAlready(chat.view())).toBe(true);
    expect(ANSWERED_ALREADY).toBe('This question was answered already.');
    expect(chat.interrupt()).toBeUndefined();
    expect(streamed(port)).toHaveLength(1); // the question's turn only
  });

  it("answered already, by the agent (A2A 1.1's -32010, a conflict): answeredAlready", async () => {
    const answering = new Subject<AgentEvent>();
    const { port, chat } = await asked(3, answering);
    chat.answer(chat.interrupt()!, 'Rome');
    await streaming(port, 2);
    answering.error(new A2AError({ kind: 'conflict', operation: 'stream', retryable: false, message: 'generation mismatch' }));
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'error', error: { kind: 'conflict' } });
    expect(chat.answeredAlready()).toBe(true);
  });

  it('any other error is not answeredAlready; a new send clears the interrupt', async () => {
    const next = new Subject<AgentEvent>();
    const { port, chat } = await asked(3, next);
    expect(answeredAlready({ phase: 'error', reply: '', reconnecting: false, polling: false })).toBe(false);
    chat.send('something else');
    await streaming(port, 2);
    expect(chat.interrupt()).toBeUndefined();
    next.error(new A2AError({ kind: 'network', operation: 'stream', message: 'down' }));
    await flush();
    expect(chat.view()?.phase).toBe('error');
    expect(chat.answeredAlready()).toBe(false);
  });

  it('a question resume() finds carries its interrupt, answerable as any', async () => {
    const waiting: Task = { ...task('T', 'input-required', { message: QUESTION }), generation: 3, elicitations: [ASKED[0]!] };
    let context = '';
    const resubscribed = new Subject<AgentEvent>();
    const port = createFakePort({
      card: () => of(testCard({ protocolVersion: '1.1' })),
      listTasks: (contextId) => {
        context = contextId;
        return of({ tasks: [{ ...waiting, contextId }] });
      },
      resubscribe: () => resubscribed,
      getTask: () => of<Task>({ ...waiting, contextId: context }),
      stream: () => new Subject<AgentEvent>(),
    });
    const chat = conversation(port);
    chat.resume();
    await vi.waitFor(() => expect(methods(port)).toContain('resubscribe'));
    resubscribed.next({ kind: 'task', task: { ...waiting, contextId: context } });
    await flush();
    expect(chat.view()).toMatchObject({ phase: 'ended', outcome: 'input-required', taskId: 'T' });
    expect(chat.interrupt()).toMatchObject({ kind: 'input', taskId: 'T', text: QUESTION, generation: 3, elicitations: [ASKED[0]] });
    chat.answer(chat.interrupt()!, 'Paris');
    await streaming(port);
    expect(streamed(port)).toEqual([
      expect.objectContaining({ text: 'Paris', taskId: 'T', elicitationIds: ['T/q1'], ifGenerationMatch: 3 }),
    ]);
  });

  it('on the server (PLATFORM_ID "server") answer sends nothing', async () => {
    const port = createFakePort({ card: () => of(testCard()) });
    const chat = conversation(port, {}, true);
    const question: Interrupt = { kind: 'input', taskId: 'T', text: QUESTION, generation: 3 };
    chat.answer(question, 'Paris');
    await flush();
    expect(port.calls).toEqual([]);
    expect(chat.view()).toBeUndefined();
  });
});
