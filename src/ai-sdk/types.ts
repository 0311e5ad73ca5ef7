/**
 * The shapes the AI SDK entry reads and writes, declared here structurally (nothing is imported from
 * `ai`): the UI message chunks a turn becomes, the messages a history page becomes, and the least the
 * transport reads of `useChat`'s messages. Each is assignable to the same-named type of `ai` 6 and
 * `ai` 7 (a type test checks both).
 */
import type { TurnOutcome } from '../port/events.js';
import type { TaskState } from '../port/types.js';
import type { A2AActionData, A2ASurfaceData, A2ASurfaceRefusedData } from './a2ui-types.js';
import type { A2AMessageMetadata } from './usage.js';

/**
 * What the entry marks on a part, under the `a4h` key of its `providerMetadata`: a text part the
 * reply no longer shows (`replaced`, see {@link isReplacedText}), a file's name (`filename`; a
 * streamed file chunk has no field for it).
 */
export type A2APartMetadata = { a4h: { [key: string]: string | boolean } };

/** The agent's task behind an assistant message: its ids, and how its turn ended. */
export type A2ATaskData = {
  /** The agent's task; absent for an answer that came as a message, with no task. */
  taskId?: string;
  /** The conversation's contextId, when known. */
  contextId?: string;
  /**
   * How the turn ended (absent while it runs). `input-required` or `auth-required`: the message's
   * text is the agent's question, and the thread's next message answers it in this task.
   */
  outcome?: TurnOutcome;
  /** Why a past reply cannot be shown (it passes the client's bounds), in a sentence by its kind (no URL); history only. */
  error?: string;
  /**
   * A completed turn whose reply the turn did not get (the end event's `replyMissing.reason`): `unread`,
   * the task could not be read back; `artifacts-empty`, its artifacts held no reply. The message then
   * finishes with `finishReason: 'other'`, never a plain `stop`.
   */
  replyMissing?: 'unread' | 'artifacts-empty';
  /**
   * On an `input-required` or `auth-required` end: what the agent waits for (the end event's
   * `interrupt`, less its task and message), so the page can show the question and the thread's next
   * message answers it (`answerTo`: the generation and the open requests go with it). Carried by the
   * messages: a server route reads it back from the messages `useChat` sends. A history message has
   * none (its exchange does not say it); a resumed question has it again.
   */
  interrupt?: A2AInterruptData;
};

/** One of the agent's requests for input (A2A 1.1 draft, ADR-002), as the end's interrupt said it. */
export type A2AElicitationData = {
  /** Its id within the task: what an answer names. */
  id: string;
  /** `blocked` holds the task, `waiting` does not, `resolved` is answered; `unknown`, a state the client does not know. */
  state: 'waiting' | 'blocked' | 'resolved' | 'unknown';
  /** What the agent says of it (the kind of answer it expects, a schema), as sent. */
  metadata?: Record<string, unknown>;
};

/** What an interrupted turn waits for: the question (or sign-in request), the agent's requests for input, the generation. */
export type A2AInterruptData = {
  /** `input`: the agent asks the person something; `auth`: it needs the person to sign in. */
  kind: 'input' | 'auth';
  /** The question's text; '' when the agent said nothing. */
  text: string;
  /** A2A 1.1 (draft): the task's requests for input, when the agent sent them. */
  elicitations?: A2AElicitationData[];
  /** A2A 1.1 (draft): the task's generation at the question, when the agent keeps them: an answer names it. */
  generation?: number;
};

/** The agent's status: the task's state and its progress text (the preview), replaced by each newer one. */
export type A2AStatusData = {
  /** The task's state. */
  state: TaskState;
  /** The agent's progress text or sign-in request, when it sent one. */
  text?: string;
};

/** A data part of the agent's answer (or of the person's message): the JSON value and its media type. */
export type A2AData = {
  /** The JSON value. */
  data: unknown;
  /** Its media type, when named. */
  mediaType?: string;
};

/** A framework's record of what the agent is doing (a tool call, its result): never part of the reply. */
export type A2AActivityData = {
  /** The record's type, e.g. `function_call`. */
  kind: string;
  /** The tool's name, when the record names one. */
  name?: string;
  /** The record's data, as the agent sent it. */
  data: unknown;
};

/**
 * The data parts of an {@link A2AUIMessage}, by name (`data-a2a-task` is the part of type
 * `a2a-task`): `useChat<A2AUIMessage>` types them.
 */
export type A2ADataTypes = {
  /** The task and, at the end, the outcome (one part per message, id `task`, updated in place). */
  'a2a-task': A2ATaskData;
  /** The agent's latest status (one part per message, id `status`, updated in place). */
  'a2a-status': A2AStatusData;
  /** One data part of the answer. */
  'a2a-data': A2AData;
  /** One framework record. */
  'a2a-activity': A2AActivityData;
  /** An A2UI surface as the turn left it (one part per surface, id its `surfaceId`, updated in place). */
  'a2a-surface': A2ASurfaceData;
  /** An A2UI message refused before any renderer. */
  'a2a-surface-refused': A2ASurfaceRefusedData;
  /** The person's action on a surface (a part of their message; the transport sends it as the action). */
  'a2a-action': A2AActionData;
};

/** A text part: the reply, or the person's text. */
export type A2ATextPart = {
  /** Discriminant. */
  type: 'text';
  /** The text. */
  text: string;
  /** `streaming` while it grows. */
  state?: 'streaming' | 'done';
  /** `{ a4h: { replaced: true } }` on a text the reply no longer shows. */
  providerMetadata?: A2APartMetadata;
};

/** A file: a data URL (bytes sent inline) or the URL the agent gave. */
export type A2AFilePart = {
  /** Discriminant. */
  type: 'file';
  /** The file's media type (`application/octet-stream` when the agent named none). */
  mediaType: string;
  /** The file's name, when known. */
  filename?: string;
  /** A `data:` URL, or where to fetch the file. */
  url: string;
  /** `{ a4h: { filename } }` when the file has a name. */
  providerMetadata?: A2APartMetadata;
};

/** A data part of an {@link A2AUIMessage}: `data-a2a-task`, `data-a2a-status`, `data-a2a-data`, `data-a2a-activity`, `data-a2a-surface`, `data-a2a-surface-refused` or `data-a2a-action`. */
export type A2ADataPart = {
  [Name in keyof A2ADataTypes]: {
    /** Discriminant. */
    type: `data-${Name}`;
    /** Set on the parts updated in place (`task`, `status`, a surface's id). */
    id?: string;
    /** The part's data. */
    data: A2ADataTypes[Name];
  };
}[keyof A2ADataTypes];

/** A part of an {@link A2AUIMessage}. */
export type A2AUIPart = A2ATextPart | A2AFilePart | A2ADataPart;

/** A `useChat` message of an A2A conversation: assignable to `UIMessage<unknown, A2ADataTypes>`. */
export type A2AUIMessage = {
  /** The message's id: the A2A `messageId` of the person's, `a2a-reply-<taskId>` of the agent's (see `replyMessageId`). */
  id: string;
  /** Who said it. */
  role: 'user' | 'assistant';
  /** Its parts, in order. */
  parts: A2AUIPart[];
  /** An assistant message's `usage`, when its agent reported usage (see {@link A2AMessageMetadata}); else absent. */
  metadata?: A2AMessageMetadata;
};

/**
 * A part of a message as the transport reads it: any `useChat` part is one. Text, file and
 * `data-a2a-data` parts of the person's message are sent, and a `data-a2a-action` as the action it
 * names; others are skipped.
 */
export type A2APartLike = {
  /** The part's type. */
  readonly type: string;
};

/** A message as the transport reads it: any `useChat` message is one. */
export type A2AMessageLike = {
  /** The message's id. */
  readonly id: string;
  /** Who said it. */
  readonly role: 'system' | 'user' | 'assistant';
  /** Its parts. */
  readonly parts: readonly A2APartLike[];
};
