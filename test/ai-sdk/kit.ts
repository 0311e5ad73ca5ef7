/**
 * The AI SDK tests' kit: a client over a fake port, the AI SDK's own folding of chunks into a
 * message (`readUIMessageStream`), and `useChat`'s engine without React (`AbstractChat` over a plain
 * state), so the transport is checked by the code that consumes it.
 */
import { AbstractChat, readUIMessageStream, type ChatInit, type ChatState, type UIMessage } from 'ai';
import type { A2AUIMessageChunk } from '../../src/ai-sdk/index.js';
import { createA2A, type A2AClient, type A2AOptions } from '../../src/index.js';
import type { FakePort } from '../../src/testing/index.js';

export const SECRET = 'an ai-sdk test secret, 32 bytes!';

/** A client whose agent is `port`. */
export const clientOf = (port: FakePort, options: Omit<A2AOptions, 'ports'> = {}): A2AClient =>
  createA2A({ identitySecret: SECRET, ports: () => port, ...options });

/** The person's message with one text part. */
export const userMessage = (text: string, id = `u-${text}`): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** Every chunk of `stream`, to its end. */
export async function chunksOf(stream: ReadableStream<A2AUIMessageChunk>): Promise<A2AUIMessageChunk[]> {
  const reader = stream.getReader();
  const out: A2AUIMessageChunk[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) out.push(next.value);
  return out;
}

/** The assistant message the AI SDK assembles from `chunks`, and the errors it reported. */
export async function foldChunks(chunks: readonly A2AUIMessageChunk[]): Promise<{ message: UIMessage | undefined; errors: string[] }> {
  const errors: string[] = [];
  const stream = new ReadableStream<A2AUIMessageChunk>({
    start: (controller) => {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
  let message: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({ stream, onError: (error) => errors.push(String(error)) })) message = snapshot;
  return { message, errors };
}

/** `useChat`'s engine with its messages in a plain array (what `@ai-sdk/react`'s Chat keeps in React state). */
export class NodeChat<M extends UIMessage> extends AbstractChat<M> {
  constructor(init: ChatInit<M>) {
    const state: ChatState<M> = {
      status: 'ready',
      error: undefined,
      messages: [...(init.messages ?? [])],
      pushMessage: (message) => void (state.messages = [...state.messages, message]),
      popMessage: () => void (state.messages = state.messages.slice(0, -1)),
      replaceMessage: (index, message) => void (state.messages = state.messages.map((old, i) => (i === index ? message : old))),
      snapshot: (thing) => structuredClone(thing),
    };
    super({ ...init, state });
  }
}

/** What a submit of the person's messages gives `sendMessages` (no abort signal, no message to regenerate). */
export interface SubmitOptions {
  chatId: string;
  trigger: 'submit-message';
  messageId: undefined;
  messages: UIMessage[];
  abortSignal: undefined;
}

/** The person's "hi", submitted through `transport` on chat `chat-1`. */
export function submitHi<R>(transport: { sendMessages(options: SubmitOptions): R }): R {
  return transport.sendMessages({
    chatId: 'chat-1',
    trigger: 'submit-message',
    messageId: undefined,
    messages: [userMessage('hi')],
    abortSignal: undefined,
  });
}
