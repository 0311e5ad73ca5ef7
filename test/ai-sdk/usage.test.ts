/**
 * A reply's usage through the AI SDK entry: the message's `metadata.usage`, set by `message-metadata`
 * chunks as the running total changes and by `finish` at the end, folded by ai itself (and by useChat's
 * engine); a field the total lost is cleared, never left stale; none reported, no metadata at all;
 * a history message carries its exchange's usage. Against real SDK agents in each convention too.
 */
import { DefaultChatTransport, createUIMessageStreamResponse, type UIMessage } from 'ai';
import { map, of, Subject } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { USAGE_MOUNTS, startUsageAgent, type UsageAgents } from '../../fixtures/agent-usage.js';
import { USAGE_CONVENTIONS } from '../../fixtures/usage-conventions.js';
import {
  a2aChatTransport,
  historyToUIMessages,
  replyMessageId,
  type A2AUIMessage,
  type A2AUIMessageChunk,
} from '../../src/ai-sdk/index.js';
import type { AgentEvent, AgentMessage, Task } from '../../src/index.js';
import { createA2A } from '../../src/node/create-a2a.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { withContext } from '../fake-events.js';
import { chunksOf, clientOf, foldChunks, NodeChat, SECRET, submitHi, userMessage } from './kit.js';

const AGENT = 'http://127.0.0.1:1/';

/** The chunks of one turn whose agent streams `events`, through the transport. */
async function turnChunks(events: AgentEvent[]): Promise<A2AUIMessageChunk[]> {
  const port = createFakePort({ card: () => of(testCard()), stream: () => of(...events) });
  const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => 'ctx-1' });
  return chunksOf(await submitHi(transport));
}

const metadataChunks = (chunks: readonly A2AUIMessageChunk[]) =>
  chunks.flatMap((chunk) => (chunk.type === 'message-metadata' || chunk.type === 'finish' ? [chunk] : []));

const usage = (value: Record<string, unknown>) => ({ usage: value });

describe("a reply's usage as message metadata", () => {
  it('each report moves the running total (a message-metadata chunk), the total again on finish; a repeat sends nothing', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'Par', { metadata: usage({ input_tokens: 40, output_tokens: 9, cost: 0.25 }) }),
      ev.artifact('T', 'a', 'is', { append: true, metadata: usage({ input_tokens: 40, output_tokens: 9, cost: 0.25 }) }),
      ev.artifact('T', 'b', '.', { lastChunk: true, metadata: usage({ input_tokens: 2, output_tokens: 1, total_tokens: 3 }) }),
      ev.status('T', 'completed'),
    ]);
    const first = { inputTokens: 40, outputTokens: 9, cost: { amount: 0.25 } };
    const sum = { inputTokens: 42, outputTokens: 10, totalTokens: 3, cost: { amount: 0.25 } };
    expect(metadataChunks(chunks)).toEqual([
      { type: 'message-metadata', messageMetadata: { usage: first } },
      { type: 'message-metadata', messageMetadata: { usage: sum } },
      { type: 'finish', finishReason: 'stop', messageMetadata: { usage: sum } },
    ]);
    const { message, errors } = await foldChunks(chunks);
    expect(errors).toEqual([]);
    expect(message?.metadata).toEqual({ usage: sum });
  });

  it('the agent reported nothing: no metadata chunk, a plain finish, a message without metadata (never zeros)', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'Done.', { lastChunk: true, metadata: { model: 'x', usage: { input_tokens: -1, output_tokens: 'many' } } }),
      ev.status('T', 'completed', undefined, { usage: 'none' }),
    ]);
    expect(metadataChunks(chunks)).toEqual([{ type: 'finish', finishReason: 'stop' }]);
    // ai's own message state has the key, undefined: nothing of ours is in it.
    const { message } = await foldChunks(chunks);
    expect(message?.metadata).toBeUndefined();
  });

  it("a field the total loses is cleared (ai merges metadata): a second currency drops the cost, the task's own total replaces a sum", async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'A', { metadata: usage({ input_tokens: 5, output_tokens: 1, cost: 0.5, currency: 'USD' }) }),
      ev.artifact('T', 'b', 'B', { metadata: usage({ input_tokens: 6, cost: 0.5, currency: 'EUR' }) }),
      ev.status('T', 'completed', undefined, usage({ total_tokens: 12 })),
    ]);
    const { message } = await foldChunks(chunks);
    // As the turn's end says it: only the total; every field shown before is null, none stale.
    expect(message?.metadata).toEqual({ usage: { inputTokens: null, outputTokens: null, totalTokens: 12, cost: null } });
    expect(metadataChunks(chunks).at(-1)).toEqual({
      type: 'finish',
      finishReason: 'stop',
      messageMetadata: { usage: { totalTokens: 12 } },
    });
  });

  it('a currency the total no longer names is cleared, the amount kept', async () => {
    const chunks = await turnChunks([
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'A', { metadata: usage({ input_tokens: 5, cost: { amount: 0.5, currency: 'USD' } }) }),
      ev.status('T', 'completed', undefined, usage({ input_tokens: 5, cost: 0.7 })),
    ]);
    const { message } = await foldChunks(chunks);
    expect(message?.metadata).toEqual({ usage: { inputTokens: 5, cost: { amount: 0.7, currency: null } } });
  });

  it("through a route's wire (DefaultChatTransport validates each chunk) into useChat's engine: the message's metadata is the usage", async () => {
    const events = [
      ev.task('T', 'working'),
      ev.artifact('T', 'a', 'Hi.', { lastChunk: true, metadata: usage({ inputTokens: 8, outputTokens: 2, totalTokens: 10 }) }),
      ev.status('T', 'completed'),
    ];
    const port = createFakePort({ card: () => of(testCard()), stream: () => of(...events) });
    const server = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => 'ctx-1' });
    const fetch = async (_url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const body = JSON.parse(String(init?.body)) as { id: string; messages: UIMessage[] };
      const stream = await server.sendMessages({
        ...body,
        chatId: body.id,
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      });
      return createUIMessageStreamResponse({ stream });
    };
    const transport = new DefaultChatTransport<A2AUIMessage>({ api: 'http://127.0.0.1:1/api/chat', fetch });
    const chat = new NodeChat<A2AUIMessage>({ id: 'chat-1', transport });
    await chat.sendMessage(userMessage('hi') as A2AUIMessage);
    expect(chat.error).toBeUndefined();
    expect(chat.messages.at(-1)?.metadata).toEqual({ usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 } });
  });

  it("historyToUIMessages: the reply carries its exchange's usage (numbers only); none reported, no metadata key", () => {
    const reported = { prompt_tokens: 1, completion_tokens: 2 };
    const messages = historyToUIMessages({
      contextId: 'c',
      exchanges: [
        {
          taskId: 'A',
          state: 'completed',
          outcome: 'completed',
          user: [],
          reply: 'a',
          usage: { inputTokens: 1, outputTokens: 2, reported },
        },
        { taskId: 'B', state: 'completed', outcome: 'completed', user: [], reply: 'b' },
        { taskId: 'C', state: 'completed', outcome: 'completed', user: [], reply: 'c', usage: { cost: { amount: 0.02, currency: 'EUR' } } },
      ],
    });
    expect(messages.map((message) => message.metadata)).toEqual([
      { usage: { inputTokens: 1, outputTokens: 2 } },
      undefined,
      { usage: { cost: { amount: 0.02, currency: 'EUR' } } },
    ]);
    expect(messages[1]).not.toHaveProperty('metadata');
  });
});

describe('a resumed reply and its usage', () => {
  it("after a reload: the history's running usage, then the resumed reply's from its start (reset, not merged), counted once", async () => {
    const CONTEXT = 'ctx-1';
    const said: AgentMessage = { role: 'user', parts: [{ kind: 'text', text: 'go' }], messageId: 'm-1' };
    const first = { artifactId: 'a', parts: [{ kind: 'text' as const, text: 'Once' }], metadata: usage({ input_tokens: 5, cost: 0.5 }) };
    const running: Task = { id: 'T', contextId: CONTEXT, status: { state: 'working' }, artifacts: [first], history: [said] };
    const resubscribed = new Subject<AgentEvent>();
    const port = createFakePort({
      card: () => of(testCard()),
      listTasks: () => of({ tasks: [running] }),
      resubscribe: () => resubscribed.pipe(map((event) => withContext(event, CONTEXT))),
    });
    const transport = a2aChatTransport({ client: clientOf(port), agent: AGENT, handle: 'web', contextId: () => CONTEXT });
    const { messages } = await transport.history({ chatId: 'thread-1' });
    expect(messages.at(-1)!.metadata).toEqual({ usage: { inputTokens: 5, cost: { amount: 0.5 } } });

    const chat = new NodeChat<A2AUIMessage>({ id: 'thread-1', transport, messages });
    const resumed = chat.resumeStream();
    await vi.waitFor(() => expect(resubscribed.observed).toBe(true));
    // The snapshot again (its report counted once), then an artifact whose report has no cost: the sum keeps the one cost.
    resubscribed.next(ev.task('T', 'working', { artifacts: [first] }));
    resubscribed.next(ev.artifact('T', 'b', ' upon.', { lastChunk: true, metadata: usage({ input_tokens: 3, output_tokens: 1 }) }));
    resubscribed.next(ev.status('T', 'completed'));
    resubscribed.complete();
    await resumed;
    const reply = chat.messages.at(-1)!;
    expect(reply.id).toBe(replyMessageId('T'));
    expect(reply.metadata).toEqual({ usage: { inputTokens: 8, outputTokens: 1, cost: { amount: 0.5 } } });
  });
});

describe('usage from real SDK agents, in useChat', () => {
  let agents: UsageAgents;
  beforeAll(async () => {
    agents = await startUsageAgent();
  });
  afterAll(async () => {
    await agents?.close();
  });

  for (const wire of ['v1', 'v03'] as const) {
    for (const mode of ['streaming', 'blocking'] as const) {
      it(`${wire} ${mode}: each convention's numbers are the reply's metadata.usage; none reported, no metadata`, async () => {
        const client = createA2A({ identitySecret: SECRET });
        const agent = agents[wire].url(USAGE_MOUNTS[mode]);
        try {
          for (const [word, convention] of Object.entries(USAGE_CONVENTIONS)) {
            const transport = a2aChatTransport({ client, agent, handle: 'web' });
            const chat = new NodeChat<A2AUIMessage>({ id: `${wire}-${mode}-${word}`, transport });
            await chat.sendMessage(userMessage(word) as A2AUIMessage);
            const reply = chat.messages.at(-1)!;
            expect([word, chat.error]).toEqual([word, undefined]);
            expect([word, reply.role]).toEqual([word, 'assistant']);
            expect([word, reply.metadata]).toEqual([word, convention.expected === undefined ? undefined : { usage: convention.expected }]);
            if (wire === 'v1' && word !== 'message') {
              // The history's message of the same reply carries the same numbers.
              const page = await transport.history({ chatId: `${wire}-${mode}-${word}` });
              const past = page.messages.at(-1)!;
              expect([word, past.metadata]).toEqual([word, convention.expected === undefined ? undefined : { usage: convention.expected }]);
            }
          }
        } finally {
          await client.close();
        }
      });
    }
  }
});
