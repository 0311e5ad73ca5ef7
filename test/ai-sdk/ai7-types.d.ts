/**
 * The types of `ai` 7 that the AI SDK entry meets, vendored for a type test: `ai` 7 needs Node 22,
 * above the package's floor, so it cannot be installed; its declarations are read here instead.
 *
 * Source: the npm package `ai` 7.0.173 (`dist/index.d.ts`: the UI message, its parts, the UI message
 * chunks, `ChatTransport`, `ChatRequestOptions`, `FinishReason`, `DeepPartial`, `ValueOf`) and the
 * package `@ai-sdk/provider` 4.0.38 it depends on (`dist/index.d.ts`: `JSONValue`, `JSONObject`,
 * `SharedV4ProviderMetadata`, `SharedV4ProviderReference`, `LanguageModelV4Source`,
 * `LanguageModelV4Citation`), copied as published; only what the test needs, with two changes
 * marked where they are (the `Tool`-definition branches of `asUITool` and `DeepPartial` dropped:
 * they need `@ai-sdk/provider-utils` and do not apply to UI messages).
 *
 * Copyright 2023 Vercel, Inc. Licensed under the Apache License, Version 2.0 (the license of both
 * packages; https://www.apache.org/licenses/LICENSE-2.0).
 */
type JSONValue = null | string | number | boolean | Readonly<JSONObject> | readonly JSONValue[];
type JSONObject = {
  [key: string]: JSONValue | undefined;
};
type JSONArray = JSONValue[];
/** Additional provider-specific metadata, keyed by the provider name. */
type SharedV4ProviderMetadata = Record<string, JSONObject>;
type SharedV4ProviderReference = Record<string, string> & {
  type?: never;
};
type LanguageModelV4Source =
  | {
      type: 'source';
      /**
       * The type of source - URL sources reference web content.
       */
      sourceType: 'url';
      /**
       * The ID of the source.
       */
      id: string;
      /**
       * The URL of the source.
       */
      url: string;
      /**
       * The title of the source.
       */
      title?: string;
      /**
       * Additional provider metadata for the source.
       */
      providerMetadata?: SharedV4ProviderMetadata;
    }
  | {
      type: 'source';
      /**
       * The type of source - document sources reference files/documents.
       */
      sourceType: 'document';
      /**
       * The ID of the source.
       */
      id: string;
      /**
       * IANA media type of the document (e.g., 'application/pdf').
       */
      mediaType: string;
      /**
       * The title of the document.
       */
      title: string;
      /**
       * Optional filename of the document.
       */
      filename?: string;
      /**
       * Additional provider metadata for the source.
       */
      providerMetadata?: SharedV4ProviderMetadata;
    };
type LanguageModelV4Citation = {
  /** The referenced URL or document. */
  source: LanguageModelV4Source;
  /** Start offset in the containing generated text, when supplied by the provider. */
  startIndex?: number;
  /** Exclusive end offset in the containing generated text, when supplied by the provider. */
  endIndex?: number;
  /** The supporting passage from the source, when supplied by the provider. */
  citedText?: string;
};
type Citation = LanguageModelV4Citation;
type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'interrupted' | 'other';
type ProviderMetadata = SharedV4ProviderMetadata;
type ProviderReference = SharedV4ProviderReference;
type ValueOf<ObjectType, ValueType extends keyof ObjectType = keyof ObjectType> = ObjectType[ValueType];
// Vendored without its schema branch (`T extends FlexibleSchema ? DeepPartialInternal<InferSchema<T>> : …`):
// the UI tools of a UIMessage are plain types, never schemas.
type DeepPartial<T> = DeepPartialInternal<T>;
type DeepPartialInternal<T> = T extends
  | null
  | undefined
  | string
  | number
  | boolean
  | symbol
  | bigint
  | void
  | Date
  | RegExp
  | ((...arguments_: any[]) => unknown)
  | (new (...arguments_: any[]) => unknown)
  ? T
  : T extends Map<infer KeyType, infer ValueType>
    ? PartialMap<KeyType, ValueType>
    : T extends Set<infer ItemType>
      ? PartialSet<ItemType>
      : T extends ReadonlyMap<infer KeyType, infer ValueType>
        ? PartialReadonlyMap<KeyType, ValueType>
        : T extends ReadonlySet<infer ItemType>
          ? PartialReadonlySet<ItemType>
          : T extends object
            ? T extends ReadonlyArray<infer ItemType>
              ? ItemType[] extends T
                ? readonly ItemType[] extends T
                  ? ReadonlyArray<DeepPartialInternal<ItemType | undefined>>
                  : Array<DeepPartialInternal<ItemType | undefined>>
                : PartialObject<T>
              : PartialObject<T>
            : unknown;
type PartialMap<KeyType, ValueType> = {} & Map<DeepPartialInternal<KeyType>, DeepPartialInternal<ValueType>>;
type PartialSet<T> = {} & Set<DeepPartialInternal<T>>;
type PartialReadonlyMap<KeyType, ValueType> = {} & ReadonlyMap<DeepPartialInternal<KeyType>, DeepPartialInternal<ValueType>>;
type PartialReadonlySet<T> = {} & ReadonlySet<DeepPartialInternal<T>>;
type PartialObject<ObjectType extends object> = { [KeyType in keyof ObjectType]?: DeepPartialInternal<ObjectType[KeyType]> };
/**
 * The data types that can be used in the UI message for the UI message data parts.
 */
type UIDataTypes = Record<string, unknown>;
type UITool = {
  input: unknown;
  output: unknown | undefined;
};
type UITools = Record<string, UITool>;
/**
 * AI SDK UI Messages. They are used in the client and to communicate between the frontend and the API routes.
 */
interface UIMessage<METADATA = unknown, DATA_PARTS extends UIDataTypes = UIDataTypes, TOOLS extends UITools = UITools> {
  /**
   * A unique identifier for the message.
   */
  id: string;
  /**
   * The role of the message.
   */
  role: 'system' | 'user' | 'assistant';
  /**
   * The metadata of the message.
   */
  metadata?: METADATA;
  /**
   * The parts of the message. Use this for rendering the message in the UI.
   *
   * System messages should be avoided (set the system prompt on the server instead).
   * They can have text parts.
   *
   * User messages can have text parts and file parts.
   *
   * Assistant messages can have text, reasoning, tool invocation, and file parts.
   */
  parts: Array<UIMessagePart<DATA_PARTS, TOOLS>>;
}
type UIMessagePart<DATA_TYPES extends UIDataTypes, TOOLS extends UITools> =
  | TextUIPart
  | CustomContentUIPart
  | ReasoningUIPart
  | ToolUIPart<TOOLS>
  | DynamicToolUIPart
  | SourceUrlUIPart
  | SourceDocumentUIPart
  | FileUIPart
  | ReasoningFileUIPart
  | DataUIPart<DATA_TYPES>
  | SteeringMessageUIPart
  | StepStartUIPart;
/**
 * A text part of a message.
 */
type TextUIPart = {
  type: 'text';
  /** References supporting this text, separate from retrieved sources. */
  citations?: Array<Citation>;
  /**
   * The text content.
   */
  text: string;
  /**
   * The state of the text part.
   */
  state?: 'streaming' | 'done';
  /**
   * The provider metadata.
   */
  providerMetadata?: ProviderMetadata;
};
/**
 * A provider-specific part of a message.
 */
type CustomContentUIPart = {
  type: 'custom';
  /**
   * The kind of custom content, in the format `{provider}.{provider-type}`.
   */
  kind: `${string}.${string}`;
  /**
   * The provider metadata.
   */
  providerMetadata?: ProviderMetadata;
};
/**
 * A reasoning part of a message.
 */
type ReasoningUIPart = {
  type: 'reasoning';
  /**
   * The reasoning part ID.
   */
  id?: string;
  /**
   * The reasoning text.
   */
  text: string;
  /**
   * The state of the reasoning part.
   */
  state?: 'streaming' | 'done';
  /**
   * The provider metadata.
   */
  providerMetadata?: ProviderMetadata;
};
/**
 * A source part of a message.
 */
type SourceUrlUIPart = {
  type: 'source-url';
  sourceId: string;
  url: string;
  title?: string;
  providerMetadata?: ProviderMetadata;
};
/**
 * A document source part of a message.
 */
type SourceDocumentUIPart = {
  type: 'source-document';
  sourceId: string;
  mediaType: string;
  title: string;
  filename?: string;
  providerMetadata?: ProviderMetadata;
};
/**
 * A file part of a message.
 */
type FileUIPart = {
  type: 'file';
  /**
   * Either a full IANA media type (`type/subtype`, e.g. `image/png`) or just
   * the top-level IANA segment (e.g. `image`, `audio`, `video`, `text`).
   *
   * `*`-subtype wildcards (e.g. `image/*`) are normalized as equivalent to the
   * top-level segment alone (e.g. `image`). Providers can use the helpers in
   * `@ai-sdk/provider-utils` (`isFullMediaType`, `getTopLevelMediaType`,
   * `detectMediaType`) to resolve the field according to their API
   * requirements.
   *
   * @see https://www.iana.org/assignments/media-types/media-types.xhtml
   */
  mediaType: string;
  /**
   * Optional filename of the file.
   */
  filename?: string;
  /**
   * The URL of the file.
   * It can either be a URL to a hosted file or a [Data URL](https://developer.mozilla.org/en-US/docs/Web/HTTP/Basics_of_HTTP/Data_URLs).
   */
  url: string;
  /**
   * Provider reference for files uploaded via `uploadFile`.
   * Maps provider names to provider-specific file identifiers.
   * When present, takes precedence over `url` in model messages.
   */
  providerReference?: ProviderReference;
  /**
   * The provider metadata.
   */
  providerMetadata?: ProviderMetadata;
};
/**
 * A reasoning file part of a message.
 */
type ReasoningFileUIPart = {
  type: 'reasoning-file';
  /**
   * IANA media type of the file.
   *
   * @see https://www.iana.org/assignments/media-types/media-types.xhtml
   */
  mediaType: string;
  /**
   * The URL of the file.
   * It can either be a URL to a hosted file or a [Data URL](https://developer.mozilla.org/en-US/docs/Web/HTTP/Basics_of_HTTP/Data_URLs).
   */
  url: string;
  /**
   * The provider metadata.
   */
  providerMetadata?: ProviderMetadata;
};
/**
 * Experimental. A user message that was added to the run with steering while
 * the assistant message was generated. It is placed before the output of the
 * step that received it.
 */
type SteeringMessageUIPart = {
  type: 'steering-message';
  /**
   * The id of the steering message.
   */
  id: string;
  /**
   * The content of the user message.
   */
  parts: Array<TextUIPart | FileUIPart>;
};
/**
 * A step boundary part of a message.
 */
type StepStartUIPart = {
  type: 'step-start';
};
type DataUIPart<DATA_TYPES extends UIDataTypes> = ValueOf<{
  [NAME in keyof DATA_TYPES & string]: {
    type: `data-${NAME}`;
    id?: string;
    data: DATA_TYPES[NAME];
  };
}>;
// Vendored for UI tools only (the `Tool` branch, which infers from a tool definition, dropped).
type asUITool<TOOL extends UITool> = TOOL;
/**
 * A UI tool invocation contains all the information needed to render a tool invocation in the UI.
 * It can be derived from a tool without knowing the tool name, and can be used to define
 * UI components for the tool.
 */
type UIToolInvocation<TOOL extends UITool> = {
  /**
   * ID of the tool call.
   */
  toolCallId: string;
  title?: string;
  toolMetadata?: JSONObject;
  /**
   * Whether the tool call was executed by the provider.
   */
  providerExecuted?: boolean;
} & (
  | {
      state: 'input-streaming';
      input?: DeepPartial<asUITool<TOOL>['input']> | undefined;
      /**
       * The raw tool input text received so far.
       *
       * This is used to continue input streaming when a message is persisted
       * and later resumed.
       */
      rawInput?: string;
      /** Encoding of `rawInput`. Defaults to JSON when omitted. */
      inputEncoding?: 'json' | 'text';
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval?: never;
    }
  | {
      state: 'input-available';
      input: asUITool<TOOL>['input'];
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval?: never;
    }
  | {
      state: 'approval-requested';
      input: asUITool<TOOL>['input'];
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved?: never;
        descriptor?: unknown;
        requestReason?: string;
        reason?: never;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'approval-responded';
      input: asUITool<TOOL>['input'];
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved: boolean;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-available';
      input: asUITool<TOOL>['input'];
      output: asUITool<TOOL>['output'];
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      resultProviderMetadata?: ProviderMetadata;
      preliminary?: boolean;
      approval?: {
        id: string;
        approved: true;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-error';
      input: asUITool<TOOL>['input'] | undefined;
      /**
       * @deprecated Use `input` instead. This field will be removed in the next
       * major version.
       */
      rawInput?: unknown;
      output?: never;
      errorText: string;
      callProviderMetadata?: ProviderMetadata;
      resultProviderMetadata?: ProviderMetadata;
      approval?: {
        id: string;
        approved: true;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-denied';
      input: asUITool<TOOL>['input'];
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved: false;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
);
type ToolUIPart<TOOLS extends UITools = UITools> = ValueOf<{
  [NAME in keyof TOOLS & string]: {
    type: `tool-${NAME}`;
  } & UIToolInvocation<TOOLS[NAME]>;
}>;
type DynamicToolUIPart = {
  type: 'dynamic-tool';
  /**
   * `false` when a static tool part was normalized to a dynamic tool part
   * because its current tool schema was unavailable or incompatible.
   *
   * This preserves its static origin across persistence boundaries.
   */
  dynamic?: false;
  /**
   * Name of the tool that is being called.
   */
  toolName: string;
  /**
   * ID of the tool call.
   */
  toolCallId: string;
  title?: string;
  toolMetadata?: JSONObject;
  /**
   * Whether the tool call was executed by the provider.
   */
  providerExecuted?: boolean;
} & (
  | {
      state: 'input-streaming';
      input?: unknown;
      /**
       * The raw tool input text received so far.
       *
       * This is used to continue input streaming when a message is persisted
       * and later resumed.
       */
      rawInput?: string;
      /** Encoding of `rawInput`. Defaults to JSON when omitted. */
      inputEncoding?: 'json' | 'text';
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval?: never;
    }
  | {
      state: 'input-available';
      input: unknown;
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval?: never;
    }
  | {
      state: 'approval-requested';
      input: unknown;
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved?: never;
        descriptor?: unknown;
        requestReason?: string;
        reason?: never;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'approval-responded';
      input: unknown;
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved: boolean;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-available';
      input: unknown;
      output: unknown;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      resultProviderMetadata?: ProviderMetadata;
      preliminary?: boolean;
      approval?: {
        id: string;
        approved: true;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-error';
      input: unknown;
      output?: never;
      errorText: string;
      callProviderMetadata?: ProviderMetadata;
      resultProviderMetadata?: ProviderMetadata;
      approval?: {
        id: string;
        approved: true;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
  | {
      state: 'output-denied';
      input: unknown;
      output?: never;
      errorText?: never;
      callProviderMetadata?: ProviderMetadata;
      approval: {
        id: string;
        approved: false;
        descriptor?: unknown;
        requestReason?: string;
        reason?: string;
        isAutomatic?: boolean;
        signature?: string;
        inputSchemaInput?: unknown;
      };
    }
);
type DataUIMessageChunk<DATA_TYPES extends UIDataTypes> = ValueOf<{
  [NAME in keyof DATA_TYPES & string]: {
    type: `data-${NAME}`;
    id?: string;
    data: DATA_TYPES[NAME];
    transient?: boolean;
  };
}>;
type UIMessageChunk<METADATA = unknown, DATA_TYPES extends UIDataTypes = UIDataTypes> =
  | {
      type: 'text-start';
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'text-delta';
      delta: string;
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'text-end';
      citations?: Array<Citation>;
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'reasoning-start';
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'reasoning-delta';
      id: string;
      delta: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'reasoning-end';
      id: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'custom';
      kind: `${string}.${string}`;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'error';
      errorText: string;
    }
  | {
      type: 'tool-input-available';
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
      toolMetadata?: JSONObject;
      dynamic?: boolean;
      title?: string;
    }
  | {
      type: 'tool-input-error';
      toolCallId: string;
      toolName: string;
      input: unknown;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
      toolMetadata?: JSONObject;
      dynamic?: boolean;
      errorText: string;
      title?: string;
    }
  | {
      type: 'tool-approval-request';
      approvalId: string;
      toolCallId: string;
      approvalDescriptor?: unknown;
      inputSchemaInput?: unknown;
      reason?: string;
      isAutomatic?: boolean;
      signature?: string;
    }
  | {
      type: 'tool-approval-response';
      approvalId: string;
      approved: boolean;
      reason?: string;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'tool-output-available';
      toolCallId: string;
      output: unknown;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
      toolMetadata?: JSONObject;
      dynamic?: boolean;
      preliminary?: boolean;
    }
  | {
      type: 'tool-output-error';
      toolCallId: string;
      errorText: string;
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
      toolMetadata?: JSONObject;
      dynamic?: boolean;
    }
  | {
      type: 'tool-output-denied';
      toolCallId: string;
    }
  | {
      type: 'tool-input-start';
      toolCallId: string;
      toolName: string;
      /** Encoding of the input deltas. Defaults to JSON when omitted. */
      inputEncoding?: 'json' | 'text';
      providerExecuted?: boolean;
      providerMetadata?: ProviderMetadata;
      toolMetadata?: JSONObject;
      dynamic?: boolean;
      title?: string;
    }
  | {
      type: 'tool-input-delta';
      toolCallId: string;
      inputTextDelta: string;
    }
  | {
      type: 'source-url';
      sourceId: string;
      url: string;
      title?: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'source-document';
      sourceId: string;
      mediaType: string;
      title: string;
      filename?: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'file';
      url: string;
      mediaType: string;
      providerMetadata?: ProviderMetadata;
    }
  | {
      type: 'reasoning-file';
      url: string;
      mediaType: string;
      providerMetadata?: ProviderMetadata;
    }
  | DataUIMessageChunk<DATA_TYPES>
  | {
      /**
       * Experimental. A user message that was added to the run with steering.
       */
      type: 'steering-message';
      id: string;
      parts: Array<TextUIPart | FileUIPart>;
    }
  | {
      type: 'start-step';
    }
  | {
      type: 'finish-step';
    }
  | {
      /**
       * Removes all message parts added during the current step.
       */
      type: 'reset-step';
    }
  | {
      type: 'start';
      messageId?: string;
      messageMetadata?: METADATA;
    }
  | {
      type: 'finish';
      finishReason?: FinishReason;
      messageMetadata?: METADATA;
    }
  | {
      type: 'abort';
      reason?: string;
    }
  | {
      type: 'message-metadata';
      messageMetadata: METADATA;
    };
/**
 * Transport interface for handling chat message communication and streaming.
 *
 * The `ChatTransport` interface provides fine-grained control over how messages
 * are sent to API endpoints and how responses are processed. This enables
 * alternative communication protocols like WebSockets, custom authentication
 * patterns, or specialized backend integrations.
 *
 * @template UI_MESSAGE - The UI message type extending UIMessage
 */
interface ChatTransport<UI_MESSAGE extends UIMessage> {
  /**
   * Whether reconnecting returns the complete response from its beginning.
   * Complete replays must reset the streaming message state before processing
   * the first start chunk.
   */
  readonly resumeStreamIsReplay?: boolean;
  /**
   * Releases persistent resources owned by the transport.
   *
   * The caller that creates a transport owns its lifecycle and should call
   * this method when no consumers remain. `AbstractChat.dispose()` calls it
   * for directly managed chat instances.
   */
  close?: () => void;
  /**
   * Sends messages to the chat API endpoint and returns a streaming response.
   *
   * This method handles both new message submission and message regeneration.
   * It supports real-time streaming of responses through UIMessageChunk events.
   *
   * @param options - Configuration object containing:
   * @param options.trigger - The type of message submission:
   *   - `'submit-message'`: Submitting a new user message
   *   - `'regenerate-message'`: Regenerating an assistant response
   * @param options.chatId - Unique identifier for the chat session
   * @param options.messageId - ID of the message to regenerate (for regenerate-message trigger) or undefined for new messages
   * @param options.messages - Array of UI messages representing the conversation history
   * @param options.abortSignal - Signal to abort the request if needed
   * @param options.headers - Additional HTTP headers to include in the request
   * @param options.body - Additional JSON properties to include in the request body
   * @param options.metadata - Custom metadata to attach to the request
   *
   * @returns Promise resolving to a ReadableStream of UIMessageChunk objects.
   *   The stream emits various chunk types like:
   *   - `text-start`, `text-delta`, `text-end`: For streaming text content
   *   - `tool-input-start`, `tool-input-delta`, `tool-input-available`: For tool calls
   *   - `data-part-start`, `data-part-delta`, `data-part-available`: For data parts
   *   - `error`: For error handling
   *
   * @throws Error when the API request fails or response is invalid
   */
  sendMessages: (
    options: {
      /** The type of message submission - either new message or regeneration */
      trigger: 'submit-message' | 'regenerate-message';
      /** Unique identifier for the chat session */
      chatId: string;
      /** ID of the message to regenerate, or undefined for new messages */
      messageId: string | undefined;
      /** Array of UI messages representing the conversation history */
      messages: UI_MESSAGE[];
      /** Signal to abort the request if needed */
      abortSignal: AbortSignal | undefined;
    } & ChatRequestOptions,
  ) => Promise<ReadableStream<UIMessageChunk>>;
  /**
   * Reconnects to an existing streaming response for the specified chat session.
   *
   * This method is used to resume streaming when a connection is interrupted
   * or when resuming a chat session. It's particularly useful for maintaining
   * continuity in long-running conversations or recovering from network issues.
   *
   * @param options - Configuration object containing:
   * @param options.chatId - Unique identifier for the chat session to reconnect to
   * @param options.abortSignal - Signal to abort the reconnection request if needed
   * @param options.headers - Additional HTTP headers to include in the reconnection request
   * @param options.body - Additional JSON properties to include in the request body
   * @param options.metadata - Custom metadata to attach to the request
   *
   * @returns Promise resolving to:
   *   - `ReadableStream<UIMessageChunk>`: If an active stream is found and can be resumed
   *   - `null`: If no active stream exists for the specified chat session (e.g., response already completed)
   *
   * @throws Error when the reconnection request fails or response is invalid
   */
  reconnectToStream: (
    options: {
      /** Unique identifier for the chat session to reconnect to */
      chatId: string;
      /** Signal to abort the reconnection request if needed */
      abortSignal?: AbortSignal;
    } & ChatRequestOptions,
  ) => Promise<ReadableStream<UIMessageChunk> | null>;
}
type ChatRequestOptions = {
  /**
   * Additional headers that should be to be passed to the API endpoint.
   */
  headers?: Record<string, string> | Headers;
  /**
   * Additional body JSON properties that should be sent to the API endpoint.
   */
  body?: object;
  metadata?: unknown;
};

export type {
  ChatTransport,
  ChatRequestOptions,
  UIMessage,
  UIMessagePart,
  UIMessageChunk,
  UIDataTypes,
  UITools,
  UITool,
  DataUIMessageChunk,
  TextUIPart,
  FileUIPart,
  DataUIPart,
  ToolUIPart,
  DynamicToolUIPart,
  ProviderMetadata,
  FinishReason,
  JSONValue,
  JSONObject,
};
