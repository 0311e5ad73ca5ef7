/**
 * The agent's question through the AI SDK entry, over a fake agent: the interrupt in the message's
 * `data-a2a-task` part (folded by ai itself, and through a route's wire), the answer built from it
 * (`answerTo`: the task, the generation, the open requests for input), read back from untrusted
 * messages field by field, and a second answer's `conflict` reaching `useChat` as its error.
 */
import { createUIMessageStreamResponse, DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { map, of, throwError } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { a2aChatTransport, type A2AUIMessage } from '../../src/ai-sdk/index.js';
import { questionOf } from '../../src/ai-sdk/messages.js';
import { A2AError, type AgentEvent, type Task } from '../../src/index.js';
import { agentMessage, createFakePort, ev, testCard, type FakePort, type FakePortScript } from '../../src/testing/index.js';
import { withContext } from '../fake-events.js';
import { chunksOf, clientOf, foldChunks, NodeChat, submitHi } from './kit.js';

const AGENT = 'http://127.0.0.1:1/';
const CONTEXT = 'ctx-1';
const ASK = { id: 'Q/ask', state: 'blocked', metadata: { kind: 'answer' } } as const;
const NOTE = { id: 'Q/note', state: 'waiting' } as const;
const DONE = { id: 'Q/done', state: 'resolved' } as const;

const agent = (script: FakePortScript): FakePort => createFakePort({ card: () => of(testCard()), ...script });

/** A 1.1 agent's question: the task at generation 4, its requests for input, 'Which city?'. */
const asking = (): AgentEvent[] => [
  ev.task('Q', 'working'),
  {
    kind: 'status',
    taskId: 'Q',
    status: { state: 'input-required', message: agentMessage('Which city?'), elicitations: [ASK, NOTE, DONE] },
    generation: 4,
  },
];
const waiting = (generation: number, state: Task['status']['state'] = 'input-required'): Task => ({
  id: 'Q',
  contextId: CONTEXT,
  status: { state },
  artifacts: [],
  generation,
});

/** The chat of `port` on thread-1, its contextId from the "backend". */
function chatOn(port: FakePort, messages: A2AUIMessage[] = []) {
  const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => CONTEXT });
  return { transport, chat: new NodeChat<A2AUIMessage>({ id: 'thread-1', transport, messages }) };
}

/** The assistant message of a question, as a page holds it: its task data, its text. */
const questionMessage = (data: Record<string, unknown>): A2AUIMessage => ({
  id: 'a2a-reply-Q',
  role: 'assistant',
  parts: [
    { type: 'data-a2a-task', id: 'task', data: { taskId: 'Q', contextId: CONTEXT, outcome: 'input-required', ...data } },
    { type: 'text', text: 'Which city?', state: 'done' },
  ],
});
const said = (text: string): A2AUIMessage => ({ id: `u-${text}`, role: 'user', parts: [{ type: 'text', text }] });
const sentMessages = (port: FakePort) => port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));

describe("the agent's question in a message", () => {
  it('the task part of a question carries its interrupt: kind, text, requests for input, generation; folded by ai, and the same through a route', async () => {
    const port = agent({ stream: () => of(...asking()).pipe(map((event) => withContext(event, CONTEXT))) });
    const { transport } = chatOn(port);
    const chunks = await chunksOf(await submitHi(transport));
    const interrupt = { kind: 'input', text: 'Which city?', elicitations: [ASK, NOTE, DONE], generation: 4 };
    expect(chunks.filter((chunk) => chunk.type === 'data-a2a-task').at(-1)).toEqual({
      type: 'data-a2a-task',
      id: 'task',
      data: { taskId: 'Q', contextId: CONTEXT, outcome: 'input-required', interrupt },
    });
    const { message, errors } = await foldChunks(chunks);
    expect(errors).toEqual([]);
    expect(message!.parts[0]).toEqual({ type: 'data-a2a-task', id: 'task', data: expect.objectContaining({ interrupt }) });

    const response = createUIMessageStreamResponse({
      stream: new ReadableStream({ start: (c) => (chunks.forEach((x) => c.enqueue(x)), c.close()) }),
    });
    const browser = new DefaultChatTransport<UIMessage>({ api: 'http://route.example/api/chat', fetch: async () => response });
    const read = await browser.sendMessages({
      chatId: 'c',
      trigger: 'submit-message',
      messageId: undefined,
      messages: [],
      abortSignal: undefined,
    });
    let routed: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream: read, terminateOnError: true })) routed = snapshot;
    expect(routed).toEqual(message);
    // A reload (or a replica) reads the question back from the message alone.
    expect(questionOf([message as A2AUIMessage, said('Paris')])).toEqual({
      kind: 'input',
      taskId: 'Q',
      contextId: CONTEXT,
      text: 'Which city?',
      elicitations: [{ id: 'Q/ask', state: 'blocked' }, NOTE, DONE],
      generation: 4,
    });
  });

  it('a 1.0 agent: the interrupt has no generation and no requests', async () => {
    const plain: AgentEvent[] = [ev.task('Q', 'working'), ev.status('Q', 'input-required', 'Which city?')];
    const port = agent({ stream: () => of(...plain).pipe(map((event) => withContext(event, CONTEXT))) });
    const chunks = await chunksOf(await submitHi(chatOn(port).transport));
    expect(chunks.filter((chunk) => chunk.type === 'data-a2a-task').at(-1)).toMatchObject({
      data: { outcome: 'input-required', interrupt: { kind: 'input', text: 'Which city?' } },
    });
    const last = chunks.filter((chunk) => chunk.type === 'data-a2a-task').at(-1) as { data: { interrupt: object } };
    expect(Object.keys(last.data.interrupt).sort()).toEqual(['kind', 'text']);
  });
});

describe('the answer: answerTo the interrupt the messages carry', () => {
  it('the next message continues the task at the generation it was asked at, naming the open requests for input', async () => {
    const port = agent({
      getTask: () => of(waiting(4)),
      stream: () => of(ev.task('Q', 'working'), ev.artifact('Q', 'a', 'Paris it is', { lastChunk: true }), ev.status('Q', 'completed')),
    });
    const interrupt = { kind: 'input', text: 'Which city?', elicitations: [ASK, NOTE, DONE], generation: 4 };
    const { chat } = chatOn(port, [said('input'), questionMessage({ interrupt })]);
    await chat.sendMessage({ text: 'Paris' });
    expect(chat.error).toBeUndefined();
    expect(sentMessages(port)).toEqual([
      expect.objectContaining({ text: 'Paris', taskId: 'Q', ifGenerationMatch: 4, elicitationIds: ['Q/ask', 'Q/note'] }),
    ]);
  });

  it('a history message (no interrupt): the task alone, as before', async () => {
    const port = agent({
      getTask: () => of(waiting(4)),
      stream: () => of(ev.task('Q', 'working'), ev.status('Q', 'completed')),
    });
    const { chat } = chatOn(port, [said('input'), questionMessage({})]);
    await chat.sendMessage({ text: 'Paris' });
    const [sent] = sentMessages(port);
    expect(sent).toMatchObject({ text: 'Paris', taskId: 'Q' });
    expect(sent).not.toHaveProperty('ifGenerationMatch');
    expect(sent).not.toHaveProperty('elicitationIds');
  });

  it("the messages are the browser's: what is not of its type is left out, never sent", () => {
    const bad = {
      kind: 'input',
      generation: 2.5,
      elicitations: ['x', { id: 3, state: 'blocked' }, { id: 'ok', state: 'odd' }, { id: 'e', state: 'waiting' }],
    };
    expect(questionOf([questionMessage({ interrupt: bad }), said('Paris')])).toEqual({
      kind: 'input',
      taskId: 'Q',
      contextId: CONTEXT,
      text: '',
      elicitations: [{ id: 'e', state: 'waiting' }],
    });
    expect(questionOf([questionMessage({ interrupt: { generation: '4' } }), said('x')])).not.toHaveProperty('generation');
    expect(questionOf([questionMessage({ outcome: 'completed', interrupt: { generation: 4 } }), said('x')])).toBeUndefined();
    expect(questionOf([questionMessage({ taskId: 7 }), said('x')])).toBeUndefined();
  });

  it("a question answered already: the send is a conflict, nothing goes, and useChat's error says so", async () => {
    // The task moved past the question (another tab's answer): the turn's own check refuses this one.
    const port = agent({ getTask: () => of(waiting(6, 'working')), stream: () => of(ev.task('Q', 'completed')) });
    const { chat } = chatOn(port, [said('input'), questionMessage({ interrupt: { kind: 'input', text: 'Which city?', generation: 4 } })]);
    await chat.sendMessage({ text: 'Rome' });
    expect(chat.status).toBe('error');
    expect(chat.error?.message).toBe('The question was answered already.');
    expect(sentMessages(port)).toEqual([]);
  });

  it("the agent's own refusal (-32010, a conflict error) reaches useChat the same way", async () => {
    const refused = new A2AError({ kind: 'conflict', retryable: false, message: 'task generation mismatch: http://10.0.0.5/a2a' });
    const port = agent({ getTask: () => of(waiting(4)), stream: () => throwError(() => refused) });
    const { chat } = chatOn(port, [said('input'), questionMessage({ interrupt: { kind: 'input', text: 'Which city?', generation: 4 } })]);
    await chat.sendMessage({ text: 'Rome' });
    expect(chat.error?.message).toBe('The question was answered already.');
    expect(sentMessages(port)).toHaveLength(1);
  });
});
