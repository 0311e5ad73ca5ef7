/**
 * The agent's question through the transport in `useChat`'s engine, against the A2A 1.1 fixture agent
 * (its 1.1 and 1.0 mounts, on loopback): the interrupt a message carries, an answer regenerated, a
 * question found again by a reload's resume, and two chats answering one question at once: one answer
 * reaches the task.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startV11Agent, V11_MOUNTS, type V11Agent } from '../../fixtures/agent-v11.js';
import { INPUT_QUESTION } from '../../fixtures/behaviours.js';
import { a2aChatTransport, type A2ATaskData, type A2AUIMessage } from '../../src/ai-sdk/index.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { A2AClient } from '../../src/index.js';
import { NodeChat } from './kit.js';

const SECRET = 'ai-sdk-interrupt-secret-0123456789abcdef';
let agent: V11Agent | undefined;
const clients: A2AClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await agent?.close();
  agent = undefined;
});

/** A chat on `thread` at the agent's `mount`, with a client of its own (a tab, a replica). */
function chatAt(mount: string, thread: string, messages: A2AUIMessage[] = []) {
  const client = createA2A({ identitySecret: SECRET });
  clients.push(client);
  const transport = a2aChatTransport({ client, agent: agent!.url(mount), handle: 'web' });
  return { transport, chat: new NodeChat<A2AUIMessage>({ id: thread, transport, messages }) };
}

/** The task data of a message. */
const taskOf = (message: A2AUIMessage | undefined): A2ATaskData | undefined =>
  message?.parts.find((part): part is Extract<A2AUIMessage['parts'][number], { type: 'data-a2a-task' }> => part.type === 'data-a2a-task')
    ?.data;

describe('the interrupt through the transport, against the 1.1 fixture agent', () => {
  it('a 1.1 agent: the question carries its generation and request; the answer names both and completes the task', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const { chat } = chatAt(V11_MOUNTS.main, 'one');
    await chat.sendMessage({ text: 'input please' });
    const asked = taskOf(chat.messages.at(-1))!;
    const taskId = asked.taskId!;
    expect(asked).toMatchObject({
      outcome: 'input-required',
      interrupt: { kind: 'input', text: INPUT_QUESTION, elicitations: [{ id: `${taskId}/q1`, state: 'blocked' }] },
    });
    expect(asked.interrupt!.generation).toBeGreaterThan(0);
    await chat.sendMessage({ text: 'Paris' });
    expect(chat.error).toBeUndefined();
    expect(taskOf(chat.messages.at(-1))).toMatchObject({ taskId, outcome: 'completed' });
    const [sent] = agent.record
      .of('SendStreamingMessage', taskId)
      .map((request) => request.params as Record<string, Record<string, unknown>>);
    expect(sent!['configuration']?.['ifGenerationMatch']).toBe(String(asked.interrupt!.generation));
    expect(sent!['message']?.['elicitationIds']).toEqual([`${taskId}/q1`]);
  });

  it('regenerating the answer (a 1.1 agent): the question was answered already; nothing goes, not even to a new task', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const { chat } = chatAt(V11_MOUNTS.main, 'again');
    await chat.sendMessage({ text: 'input please' });
    await chat.sendMessage({ text: 'Paris' });
    expect(taskOf(chat.messages.at(-1))).toMatchObject({ outcome: 'completed' });
    const sends = agent.record.of('SendStreamingMessage').length;
    await chat.regenerate();
    expect(chat.error?.message).toBe('The question was answered already.');
    expect(agent.record.of('SendStreamingMessage')).toHaveLength(sends);
  });

  it('a 1.0 agent: the question carries no generation and no requests; the answer goes as ever', async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const { chat } = chatAt(V11_MOUNTS.v10, 'old');
    await chat.sendMessage({ text: 'input please' });
    const asked = taskOf(chat.messages.at(-1))!;
    expect(asked).toMatchObject({ outcome: 'input-required', interrupt: { kind: 'input', text: INPUT_QUESTION } });
    expect(asked.interrupt).not.toHaveProperty('generation');
    expect(asked.interrupt).not.toHaveProperty('elicitations');
    await chat.sendMessage({ text: 'Paris' });
    expect(taskOf(chat.messages.at(-1))).toMatchObject({ taskId: asked.taskId, outcome: 'completed' });
  });

  it("after a reload: the history's question, then the resume finds it again with its generation", async () => {
    agent = await startV11Agent({ elicitations: 'one' });
    const { chat } = chatAt(V11_MOUNTS.main, 'reload');
    await chat.sendMessage({ text: 'input please' });
    const asked = taskOf(chat.messages.at(-1))!;
    const page = chatAt(V11_MOUNTS.main, 'reload');
    const { messages } = await page.transport.history({ chatId: 'reload' });
    expect(taskOf(messages.at(-1))).toMatchObject({ taskId: asked.taskId, outcome: 'input-required' });
    const reloaded = chatAt(V11_MOUNTS.main, 'reload', messages);
    await reloaded.chat.resumeStream();
    expect(reloaded.chat.messages).toHaveLength(messages.length);
    expect(taskOf(reloaded.chat.messages.at(-1))).toMatchObject({ taskId: asked.taskId, interrupt: asked.interrupt });
  });

  it('two chats answer one question at once: one completes, the other gets "answered already"; the agent took one answer', async () => {
    agent = await startV11Agent({ elicitations: 'one', answerDelayMs: 150 });
    const first = chatAt(V11_MOUNTS.main, 'tabs');
    await first.chat.sendMessage({ text: 'input please' });
    const taskId = taskOf(first.chat.messages.at(-1))!.taskId!;
    const second = chatAt(V11_MOUNTS.main, 'tabs', first.chat.messages);
    await Promise.all([first.chat.sendMessage({ text: 'Paris' }), second.chat.sendMessage({ text: 'Rome' })]);
    const outcomes = [first.chat, second.chat].map((chat) => chat.error?.message ?? taskOf(chat.messages.at(-1))?.outcome);
    expect(outcomes.sort()).toEqual(['The question was answered already.', 'completed']);
    expect(agent.record.requests.filter((request) => request.refused === -32010)).toHaveLength(1);
    expect(agent.record.of('SendStreamingMessage', taskId).filter((request) => request.refused === undefined)).toHaveLength(1);
  });
});
