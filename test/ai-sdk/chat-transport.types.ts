/**
 * A type test, no runtime: the entry's transport, messages and chunks are the AI SDK's. `npm run
 * typecheck` compiles it twice: against the installed `ai` 6 (tsconfig.json) and against the
 * declarations of `ai` 7 vendored in ai7-types.d.ts (tsconfig.ai7.json maps `ai` there).
 */
import type { ChatTransport, UIDataTypes, UIMessage, UIMessageChunk } from 'ai';
import type { A2AClient } from '../../src/index.js';
import { a2aChatTransport, historyToUIMessages } from '../../src/ai-sdk/index.js';
import type { A2ADataTypes, A2AMessageMetadata, A2AUIMessage, A2AUIMessageChunk } from '../../src/ai-sdk/index.js';

declare const client: A2AClient;
const transport = a2aChatTransport({ client, agent: 'http://127.0.0.1:1/', handle: 'web' });

/** `useChat<A2AUIMessage>({ transport })`: the transport of the entry's own messages. */
export const typed: ChatTransport<A2AUIMessage> = transport;
/** `useChat({ transport })`: the transport of any message (tools, reasoning, other data parts). */
export const untyped: ChatTransport<UIMessage> = transport;
/** The history's messages are `useChat`'s `messages`. */
export const initial: UIMessage<unknown, A2ADataTypes>[] = historyToUIMessages({ contextId: 'c', exchanges: [] });
/** The data types are UI data types. */
export const data: UIDataTypes = {} as A2ADataTypes;
/** Every chunk the entry writes is a UI message chunk, typed by the entry's data types too. */
export const chunk: UIMessageChunk = {} as A2AUIMessageChunk;
export const typedChunk: UIMessageChunk<unknown, A2ADataTypes> = {} as A2AUIMessageChunk;
/** A2UI: a surface part is a part of `useChat`'s messages, and the person's action part is one `sendMessage` takes. */
export const surfacePart: UIMessage<unknown, A2ADataTypes>['parts'][number] = {
  type: 'data-a2a-surface',
  id: 'form',
  data: { surfaceId: 'form', messages: [] },
};
export const actionPart: UIMessage<unknown, A2ADataTypes>['parts'][number] = {
  type: 'data-a2a-action',
  data: { surfaceId: 'form', name: 'submit', sourceComponentId: 'go' },
};
/** Usage: the messages' metadata type is `useChat`'s metadata, and the chunks that carry it are typed by it. */
export const withUsage: UIMessage<A2AMessageMetadata, A2ADataTypes>[] = historyToUIMessages({ contextId: 'c', exchanges: [] });
export const usageChunk: UIMessageChunk<A2AMessageMetadata, A2ADataTypes> = {} as A2AUIMessageChunk;
export const typedUsage: ChatTransport<UIMessage<A2AMessageMetadata, A2ADataTypes>> = transport;
