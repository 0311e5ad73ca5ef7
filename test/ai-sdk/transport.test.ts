/**
 * The transport in `useChat`'s own engine (`AbstractChat`, as `@ai-sdk/react` runs it, without
 * React) over a fake agent: a message is a turn, Stop cancels at the agent (or detaches), a
 * question is answered in its task after a reload, the chat opens with the thread's history and
 * a reply in flight resumes in place, once.
 */
import { map, of, Subject, throwError } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { a2aChatTransport, historyToUIMessages, replyMessageId, replyTextOf, type A2AUIMessage } from '../../src/ai-sdk/index.js';
import { A2AError, type A2AClient, type AgentEvent, type AgentMessage, type Task } from '../../src/index.js';
import { createFakePort, ev, task, testCard, type FakePort, type FakePortScript } from '../../src/testing/index.js';
import { clientOf, NodeChat } from './kit.js';
import { withContext } from '../fake-events.js';

const AGENT = 'http://127.0.0.1:1/';
const CONTEXT = 'ctx-1';

/** An agent whose tasks and events carry the thread's contextId, as a real agent's do. */
function agent(script: FakePortScript): FakePort {
  return createFakePort({ card: () => of(testCard()), cancel: (taskId) => of(task(taskId, 'canceled')), ...script });
}
const stamped = (event: AgentEvent): AgentEvent => withContext(event, CONTEXT);
const said = (text: string, messageId: string): AgentMessage => ({ role: 'user', parts: [{ kind: 'text', text }], messageId });
const listed = (id: string, state: Task['status']['state'], reply: string, history: AgentMessage[]): Task => ({
  id,
  contextId: CONTEXT,
  status: { state },
  artifacts: reply === '' ? [] : [{ artifactId: 'a', parts: [{ kind: 'text', text: reply }] }],
  history,
});

function chatOn(port: FakePort, extra: { messages?: A2AUIMessage[]; onLeave?: 'detach'; client?: A2AClient } = {}) {
  const { messages: _messages, client = clientOf(port), ...options } = extra;
  const transport = a2aChatTransport({ client, agent: AGENT, handle: 'web', contextId: () => CONTEXT, ...options });
  return { transport, chat: new NodeChat<A2AUIMessage>({ id: 'thread-1', transport, messages: extra.messages ?? [] }) };
}
const methods = (port: FakePort) => port.calls.map((call) => call.method);

describe('the transport in useChat', () => {
  it("a message is a turn on the chat's thread: the reply streams into an assistant message; the person's message id is the A2A messageId", async () => {
    const port = agent({
      stream: () =>
        of(ev.task('T', 'working'), ev.artifact('T', 'a', 'Hi there', { lastChunk: true }), ev.status('T', 'completed')).pipe(map(stamped)),
    });
    const { chat } = chatOn(port);
    await chat.sendMessage({ text: 'Hello' });
    expect(chat.status).toBe('ready');
    expect(chat.messages.map((message) => [message.role, replyTextOf(message)])).toEqual([
      ['user', 'Hello'],
      ['assistant', 'Hi there'],
    ]);
    expect(port.calls.find((call) => call.method === 'stream')).toMatchObject({
      message: { text: 'Hello', messageId: chat.messages[0]!.id, contextId: CONTEXT },
    });
  });

  it("regenerate sends the person's last message again under a new message id (an agent may drop a repeated one)", async () => {
    const reply = (n: number) =>
      of(ev.task(`T${n}`, 'working'), ev.artifact(`T${n}`, 'a', `Answer ${n}`, { lastChunk: true }), ev.status(`T${n}`, 'completed'));
    const port = agent({ stream: (_message, n) => reply(n).pipe(map(stamped)) });
    const { chat } = chatOn(port);
    await chat.sendMessage({ text: 'Hello' });
    await chat.regenerate();
    const sent = port.calls.flatMap((call) => (call.method === 'stream' ? [call.message] : []));
    expect(sent.map((message) => message.text)).toEqual(['Hello', 'Hello']);
    expect(sent[0]!.messageId).toBe(chat.messages[0]!.id);
    expect(sent[1]!.messageId).not.toBe(sent[0]!.messageId);
    expect(chat.messages.map(replyTextOf)).toEqual(['Hello', 'Answer 2']);
  });

  it('Stop leaves the turn: the agent gets CancelTask, the message keeps what came', async () => {
    const events = new Subject<AgentEvent>();
    const port = agent({ stream: () => events.pipe(map(stamped)) });
    const { chat } = chatOn(port);
    const sent = chat.sendMessage({ text: 'slow story' });
    await vi.waitFor(() => expect(events.observed).toBe(true));
    events.next(ev.task('T', 'working'));
    events.next(ev.artifact('T', 'a', 'Once upon'));
    await vi.waitFor(() => expect(replyTextOf(chat.messages.at(-1)!)).toBe('Once upon'));
    await chat.stop();
    await sent;
    expect(events.observed).toBe(false);
    await vi.waitFor(() => expect(port.calls).toContainEqual({ method: 'cancel', taskId: 'T' }));
    expect(chat.status).toBe('ready');
    expect(replyTextOf(chat.messages.at(-1)!)).toBe('Once upon');
  });

  it("with onLeave 'detach', Stop stops reading and leaves the task running (no CancelTask)", async () => {
    const events = new Subject<AgentEvent>();
    const port = agent({ stream: () => events.pipe(map(stamped)) });
    const { chat } = chatOn(port, { onLeave: 'detach' });
    const sent = chat.sendMessage({ text: 'slow story' });
    await vi.waitFor(() => expect(events.observed).toBe(true));
    events.next(ev.task('T', 'working'));
    await chat.stop();
    await sent;
    expect(events.observed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(methods(port)).not.toContain('cancel');
  });

  it("the chat opens with the thread's history; the agent's question is answered in its task, by a new page's client", async () => {
    const question = listed('Q', 'input-required', '', [said('ask the colour', 'm-ask')]);
    question.status.message = { role: 'agent', parts: [{ kind: 'text', text: 'Which colour?' }] };
    const port = agent({
      // Newest first, as agents list them: the question came last.
      listTasks: () => of({ tasks: [question, listed('T1', 'completed', 'First answer', [said('First', 'm-1')])] }),
      getTask: () => of(question),
      stream: () =>
        of(ev.task('Q', 'working'), ev.artifact('Q', 'a', 'Blue it is', { lastChunk: true }), ev.status('Q', 'completed')).pipe(
          map(stamped),
        ),
    });
    const { transport } = chatOn(port);
    const { messages, before } = await transport.history({ chatId: 'thread-1' });
    expect(before).toBeUndefined();
    expect(messages.map((message) => [message.id, message.role, replyTextOf(message)])).toEqual([
      ['m-1', 'user', 'First'],
      [replyMessageId('T1'), 'assistant', 'First answer'],
      ['m-ask', 'user', 'ask the colour'],
      [replyMessageId('Q'), 'assistant', 'Which colour?'],
    ]);
    // Another page (a reload), or another replica: a client that remembers nothing of the thread and
    // does not look for a waiting task at the agent; the messages carry the question's task.
    const { chat } = chatOn(port, { messages, client: clientOf(port, { policy: { continueInterrupted: false } }) });
    await chat.sendMessage({ text: 'Blue' });
    expect(port.calls.find((call) => call.method === 'stream')).toMatchObject({ message: { text: 'Blue', taskId: 'Q' } });
    expect(replyTextOf(chat.messages.at(-1)!)).toBe('Blue it is');
  });
});

describe('reconnectToStream: a reply in flight', () => {
  it('nothing unfinished: null, and the chat stays as it was', async () => {
    const port = agent({ listTasks: () => of({ tasks: [listed('T1', 'completed', 'Done', [said('Hi', 'm-1')])] }) });
    const { transport, chat } = chatOn(port);
    expect(await transport.reconnectToStream({ chatId: 'thread-1' })).toBeNull();
    await chat.resumeStream();
    expect(chat.messages).toEqual([]);
    expect(chat.status).toBe('ready');
  });

  it('a v0.3 agent (no ListTasks) resumes nothing; another failure to look is an error', async () => {
    const { listTasks: _none, ...v03 } = agent({ card: () => of(testCard({ protocolVersion: '0.3' })) });
    expect(await chatOn(v03 as FakePort).transport.reconnectToStream({ chatId: 'thread-1' })).toBeNull();
    const down = agent({ card: () => throwError(() => new A2AError({ kind: 'network', message: 'the agent is down' })) });
    await expect(chatOn(down).transport.reconnectToStream({ chatId: 'thread-1' })).rejects.toThrow('the agent is down');
  });

  it('after a reload: the history, then the reply in progress replaces its history message in place, from its start, and goes on; nothing doubled', async () => {
    const resubscribed = new Subject<AgentEvent>();
    const running = listed('T2', 'working', 'Once upon', [said('tell a story', 'm-2')]);
    const port = agent({
      listTasks: () => of({ tasks: [running, listed('T1', 'completed', 'First answer', [said('First', 'm-1')])] }),
      resubscribe: () => resubscribed.pipe(map(stamped)),
    });
    const { transport } = chatOn(port);
    const { messages } = await transport.history({ chatId: 'thread-1' });
    expect(messages.map((message) => message.id)).toEqual(['m-1', replyMessageId('T1'), 'm-2', replyMessageId('T2')]);

    const { chat } = chatOn(port, { messages });
    const resumed = chat.resumeStream();
    await vi.waitFor(() => expect(resubscribed.observed).toBe(true));
    resubscribed.next(ev.task('T2', 'working', { artifacts: [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Once upon a time' }] }] }));
    await vi.waitFor(() => expect(replyTextOf(chat.messages.at(-1)!)).toBe('Once upon a time'));
    resubscribed.next(ev.artifact('T2', 'a', ', the end.', { append: true, lastChunk: true }));
    resubscribed.next(ev.status('T2', 'completed'));
    resubscribed.complete();
    await resumed;
    expect(chat.messages.map((message) => [message.id, replyTextOf(message)])).toEqual([
      ['m-1', 'First'],
      [replyMessageId('T1'), 'First answer'],
      ['m-2', 'tell a story'],
      [replyMessageId('T2'), 'Once upon a time, the end.'],
    ]);
    expect(chat.messages.at(-1)!.parts.filter((part) => part.type === 'text')).toHaveLength(1);
    expect(methods(port)).not.toContain('cancel');
  });
});

describe('historyToUIMessages', () => {
  it("each exchange: the person's messages, then the reply with its task, status, text, files and data; a reply past the bounds says why", () => {
    const messages = historyToUIMessages({
      contextId: CONTEXT,
      exchanges: [
        {
          taskId: 'T1',
          user: [
            { text: 'Here', attachments: [{ kind: 'file', name: 'a.txt', mediaType: 'text/plain', bytes: new Uint8Array([104, 105]) }] },
          ],
          reply: 'Got it',
          attachments: [{ kind: 'data', data: { ok: true } }],
          state: 'completed',
          outcome: 'completed',
        },
        {
          taskId: 'T2',
          user: [],
          reply: '',
          state: 'completed',
          outcome: 'completed',
          error: new A2AError({ kind: 'protocol', message: 'too long' }),
        },
      ],
    });
    expect(messages).toEqual([
      {
        id: 'a2a-user-T1-0',
        role: 'user',
        parts: [
          { type: 'text', text: 'Here', state: 'done' },
          {
            type: 'file',
            mediaType: 'text/plain',
            url: 'data:text/plain;base64,aGk=',
            filename: 'a.txt',
            providerMetadata: { a4h: { filename: 'a.txt' } },
          },
        ],
      },
      {
        id: 'a2a-reply-T1',
        role: 'assistant',
        parts: [
          { type: 'data-a2a-task', id: 'task', data: { taskId: 'T1', contextId: CONTEXT, outcome: 'completed' } },
          { type: 'data-a2a-status', id: 'status', data: { state: 'completed' } },
          { type: 'text', text: 'Got it', state: 'done' },
          { type: 'data-a2a-data', data: { data: { ok: true } } },
        ],
      },
      {
        id: 'a2a-reply-T2',
        role: 'assistant',
        parts: [
          {
            type: 'data-a2a-task',
            id: 'task',
            data: { taskId: 'T2', contextId: CONTEXT, outcome: 'completed', error: "The agent's answer could not be read." },
          },
          { type: 'data-a2a-status', id: 'status', data: { state: 'completed' } },
        ],
      },
    ]);
  });
});
