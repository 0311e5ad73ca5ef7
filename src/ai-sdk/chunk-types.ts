/** The UI message chunks the AI SDK entry writes: the subset of the AI SDK's `UIMessageChunk` a turn becomes. */
import type { A2ADataPart, A2APartMetadata } from './types.js';
import type { A2AMessageMetadata } from './usage.js';

/** A data chunk: a data part to add, or to update in place when its `id` was seen (the part itself). */
export type A2ADataChunk = A2ADataPart;

/**
 * A UI message chunk of a turn: the subset of the AI SDK's `UIMessageChunk` the entry writes
 * (`start`, `text-start` / `text-delta` / `text-end`, `file`, `data-a2a-*`, `message-metadata`, `error`,
 * `abort`, `finish`).
 */
export type A2AUIMessageChunk =
  | {
      /** Discriminant. */
      type: 'start';
      /** The assistant message's id, on a resumed reply (the id its history message has). */
      messageId?: string;
    }
  | {
      /** Discriminant. */
      type: 'text-start' | 'text-end';
      /** The text part's id. */
      id: string;
      /** On `text-end` of a replaced text: `{ a4h: { replaced: true } }`. */
      providerMetadata?: A2APartMetadata;
    }
  | {
      /** Discriminant. */
      type: 'text-delta';
      /** The text part's id. */
      id: string;
      /** The text to append. */
      delta: string;
    }
  | {
      /** Discriminant. */
      type: 'file';
      /** A `data:` URL, or where to fetch the file. */
      url: string;
      /** The file's media type. */
      mediaType: string;
      /** `{ a4h: { filename } }` when the file has a name. */
      providerMetadata?: A2APartMetadata;
    }
  | A2ADataChunk
  | {
      /** Discriminant. */
      type: 'error';
      /** The turn's error, as shown (a sentence by its kind by default: no URL, no agent text). */
      errorText: string;
    }
  | {
      /** Discriminant. */
      type: 'abort';
    }
  | {
      /** Discriminant. */
      type: 'message-metadata';
      /** The message's metadata to merge: the turn's running usage, when it changed. */
      messageMetadata: A2AMessageMetadata;
    }
  | {
      /** Discriminant. */
      type: 'finish';
      /** `stop` (completed), `error` (failed, rejected) or `other` (a question, a cancel). */
      finishReason: 'stop' | 'error' | 'other';
      /** The turn's total usage, when the agent reported any. */
      messageMetadata?: A2AMessageMetadata;
    };
