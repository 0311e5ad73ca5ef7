/**
 * `a4h-a2a/ai-sdk`: A2A agents behind the AI SDK's `useChat`. A `ChatTransport` whose messages are
 * turns (Stop cancels at the agent), whose reconnect resumes the thread's reply in flight, and whose
 * history gives `useChat` its first messages, whose agents' A2UI surfaces are data parts and whose
 * person's actions on them are data parts too; the mapping of a turn to UI message chunks, for a
 * route handler. Types only meet `ai` (6 or 7, an optional peer dependency): nothing is imported from it.
 *
 * @packageDocumentation
 */
export { a2aChatTransport } from './transport.js';
export type {
  A2ACancelOptions,
  A2AChatTransport,
  A2AChatTransportOptions,
  A2AHistory,
  A2AHistoryOptions,
  A2AReconnectOptions,
  A2ASendMessagesOptions,
} from './transport.js';
export { toUIMessageStream } from './stream.js';
export { publicErrorText } from './error-text.js';
export type { UIMessageStreamOptions } from './stream.js';
export { historyToUIMessages, isReplacedText, replyMessageId, replyTextOf } from './messages.js';
export type { A2AActionData, A2ASurfaceData, A2ASurfaceRefusedData } from './a2ui-types.js';
export type { A2AMessageMetadata, A2AUsage, A2AUsageCost } from './usage.js';
export type { A2ADataChunk, A2AUIMessageChunk } from './chunk-types.js';
export type {
  A2AActivityData,
  A2AData,
  A2ADataPart,
  A2ADataTypes,
  A2AElicitationData,
  A2AFilePart,
  A2AInterruptData,
  A2AMessageLike,
  A2APartLike,
  A2APartMetadata,
  A2AStatusData,
  A2ATaskData,
  A2ATextPart,
  A2AUIMessage,
  A2AUIPart,
} from './types.js';
