/**
 * The `ChatTransport` of `useChat` over an A2A client: a message is a turn, Stop leaves it (the
 * agent gets CancelTask), reconnecting resumes the thread's reply in flight, and the chat's first
 * messages come from the thread's history.
 */
import { defaultIfEmpty, defer, from, lastValueFrom, switchMap, take, takeWhile, type Observable } from 'rxjs';
import type { A2AClient, LeaveMode, TurnInput } from '../client/types.js';
import type { TurnEvent } from '../port/events.js';
import { answerTo } from '../client/answer.js';
import { sentActionOf } from './action.js';
import { historyToUIMessages, lastUserMessage, questionOf, replyMessageId, sentMessageOf } from './messages.js';
import { resumedStream, toUIMessageStream } from './stream.js';
import type { A2AUIMessageChunk } from './chunk-types.js';
import type { A2AMessageLike, A2AUIMessage } from './types.js';

/** Options of {@link a2aChatTransport}: one agent, each chat one thread. */
export interface A2AChatTransportOptions {
  /**
   * The client the turns run on (`createA2A` of `a4h-a2a` in a browser, of `a4h-a2a/node` on a server).
   * For A2UI, its `a2ui` option names the catalogs the page renders (`createA2A({ a2ui: { catalogs } })`):
   * the turns to an agent whose card offers A2UI take it up.
   */
  client: A2AClient;
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle: part of the contextId derivation. */
  handle: string;
  /**
   * The thread of a chat: its conversation key, from `useChat`'s chat id. Default: the chat id
   * itself. On a server, where the chat id comes from the browser, make it the signed-in person's
   * (the chat id prefixed with the person's id).
   */
  thread?: (chatId: string) => string;
  /**
   * The thread's contextId from your backend (which keeps the identity secret and calls
   * `deriveContextId`), asked inside each turn, resume and history. Without it the client derives it
   * (on a server, or a client that has the secret).
   */
  contextId?: (chatId: string) => string | PromiseLike<string>;
  /**
   * What leaving a reply before its end (Stop, a closed stream) does to the agent's task: `cancel`
   * (the default: CancelTask) or `detach` (the task runs on, for a later resume; see docs/ui.md for
   * a server route).
   */
  onLeave?: LeaveMode;
  /**
   * The `errorText` of a failed turn's `error` chunk. Default: `publicErrorText`, a sentence by the
   * error's kind that names no URL, host or port and quotes nothing of the agent's.
   */
  errorText?: (error: unknown) => string;
  /** Hears the whole error of a failed turn or resume where the transport runs (a server route: to log it). */
  onError?: (error: unknown) => void;
  /** Extension URIs every turn, resume and history activates. */
  extensions?: readonly string[];
}

/** What `sendMessages` is given: `useChat`'s options (any `ai` 6 or 7 call is one). */
export interface A2ASendMessagesOptions {
  /** `submit-message`, or `regenerate-message` (the person's last message is sent again, with a new id). */
  trigger: 'submit-message' | 'regenerate-message';
  /** The chat: its thread (see {@link A2AChatTransportOptions.thread}). */
  chatId: string;
  /** The message to regenerate, or the edited one. */
  messageId: string | undefined;
  /** The chat's messages; the last is the person's, and is sent. */
  messages: readonly A2AMessageLike[];
  /** Stop: the turn is left (its task cancelled, unless `onLeave` is `detach`). */
  abortSignal: AbortSignal | undefined;
}

/** What `reconnectToStream` is given. */
export interface A2AReconnectOptions {
  /** The chat: its thread. */
  chatId: string;
  /** Leaving the resumed reply. */
  abortSignal?: AbortSignal;
}

/** What `history` is given: the chat, and the page wanted. */
export interface A2AHistoryOptions {
  /** The chat: its thread. */
  chatId: string;
  /** The newest exchanges wanted, 1–100. Default 20. */
  limit?: number;
  /** The `before` of the page shown last ("load earlier"). */
  before?: string;
}

/** What `cancel` is given: the chat, and the task of the reply to stop. */
export interface A2ACancelOptions {
  /** The chat: its thread. */
  chatId: string;
  /** The reply's task: its message's `data-a2a-task` part names it. */
  taskId: string;
}

/** A page of a chat's past as `useChat` messages. */
export interface A2AHistory {
  /** The messages, oldest first (see `historyToUIMessages`). */
  messages: A2AUIMessage[];
  /** Where the earlier messages are: hand it back as `before`. Absent when there are none. */
  before?: string;
}

/**
 * A `ChatTransport` for `useChat` (`ai` 6 and 7), from {@link a2aChatTransport}. Give `useChat` the
 * history's messages, `resume: true`, and this transport.
 */
export interface A2AChatTransport {
  /** The resumed reply comes from its start: `useChat` resets the message it replaces. */
  readonly resumeStreamIsReplay: true;
  /**
   * Sends the person's last message as a turn on the chat's thread and streams the reply as UI
   * message chunks. When the assistant message before it holds the agent's question, the message
   * answers it in its task (`answerTo` its interrupt): against an A2A 1.1 agent, only while the task
   * is still at the question's generation, so a second answer (another tab, another replica) ends
   * in an `error` chunk of a `conflict` ("The question was answered already." by default). A
   * `data-a2a-action` part in the message sends that action on its surface (`surfaceAction`, against
   * the `data-a2a-surface` part of an assistant message that created it; none: an `input` error).
   */
  sendMessages(options: A2ASendMessagesOptions): Promise<ReadableStream<A2AUIMessageChunk>>;
  /**
   * The thread's reply in flight (`client.resume`), from its start, as the assistant message of its
   * task (`replyMessageId`); a question the agent waits on too. Null when nothing is unfinished, or
   * the agent lists no tasks (v0.3).
   */
  reconnectToStream(options: A2AReconnectOptions): Promise<ReadableStream<A2AUIMessageChunk> | null>;
  /** A page of the thread's past as `useChat` messages (`client.history`), for `useChat`'s `messages`. */
  history(options: A2AHistoryOptions): Promise<A2AHistory>;
  /**
   * Stops a reply at the agent by its task (CancelTask): for a route whose turns detach when their
   * request closes (a reload resumes them), Stop's own request. The task must be the chat's thread's:
   * another's rejects with a `foreign-task` error and nothing is cancelled. Resolves once the task is
   * found and left (the CancelTask is on its way: `client.close()` waits for it).
   */
  cancel(options: A2ACancelOptions): Promise<void>;
}

/**
 * A `ChatTransport` over an A2A client, one agent, each chat one thread. In a browser, it talks to
 * the agent directly with a contextId from your backend; on a server, a route handler streams what
 * it returns (see docs/ui.md).
 */
export function a2aChatTransport(options: A2AChatTransportOptions): A2AChatTransport {
  const { client, agent, handle } = options;
  const extra = options.extensions === undefined ? {} : { extensions: options.extensions };
  const leave = options.onLeave === undefined ? {} : { onLeave: options.onLeave };
  const threadOf = (chatId: string) => ({ agent, handle, thread: options.thread?.(chatId) ?? chatId, ...extra });

  /** `run` with the chat's contextId, asked when subscribed; without the option, the client derives it. */
  const withContextId = <T>(chatId: string, run: (ids: { contextId?: string }) => Observable<T>): Observable<T> =>
    defer(() =>
      options.contextId === undefined
        ? run({})
        : from(Promise.resolve(options.contextId(chatId))).pipe(
            take(1),
            switchMap((contextId) => run({ contextId })),
          ),
    );

  return {
    resumeStreamIsReplay: true,
    sendMessages: async ({ chatId, messages, abortSignal, trigger, messageId }) => {
      const message = lastUserMessage(messages);
      const { text, files, data } = sentMessageOf(message);
      // An action on a surface (a `data-a2a-action` part) goes as surfaceAction builds it, after the message's own data.
      const action = sentActionOf(message, messages);
      const sent = [...data, ...(action?.data ?? [])];
      const question = questionOf(messages);
      const reply = {
        text: text + (action?.text ?? ''),
        ...(files.length > 0 ? { files } : {}),
        ...(sent.length > 0 ? { data: sent } : {}),
      };
      // An answer continues the question's task; of a 1.1 agent's, only at its generation (a second answer is a conflict).
      const input: Omit<TurnInput, 'agent' | 'handle' | 'thread'> = {
        ...(question === undefined ? reply : answerTo(question, reply)),
        ...(action?.metadata === undefined ? {} : { metadata: action.metadata }),
        ...leave,
      };
      // The person's message keeps its id at the agent (history shows it again); a regenerated or edited one gets a new one.
      if (trigger === 'submit-message' && messageId === undefined) input.messageId = message.id;
      const turn$: Observable<TurnEvent> = withContextId(chatId, (ids) => client.turn({ ...threadOf(chatId), ...input, ...ids }));
      return toUIMessageStream(turn$, { ...signalOf(abortSignal), ...errorTextOf(options) });
    },
    reconnectToStream: ({ chatId, abortSignal }) => {
      const resume$ = withContextId(chatId, (ids) => client.resume({ ...threadOf(chatId), ...leave, ...ids }));
      return resumedStream(resume$, { ...signalOf(abortSignal), ...errorTextOf(options) }, replyMessageId);
    },
    history: async ({ chatId, limit, before }) => {
      const page$ = withContextId(chatId, (ids) =>
        client.history({
          ...threadOf(chatId),
          ...ids,
          ...(limit === undefined ? {} : { limit }),
          ...(before === undefined ? {} : { before }),
        }),
      );
      const page = await lastValueFrom(page$);
      const messages = historyToUIMessages(page);
      return page.before === undefined ? { messages } : { messages, before: page.before };
    },
    cancel: async ({ chatId, taskId }) => {
      // The task followed (checked against the thread), then left at once: leaving a resumed turn cancels its task.
      const found$ = withContextId(chatId, (ids) => client.resume({ ...threadOf(chatId), ...ids, taskId, onLeave: 'cancel' }));
      await lastValueFrom(
        found$.pipe(
          takeWhile((event) => event.type !== 'task', true),
          defaultIfEmpty(undefined),
        ),
      );
    },
  };
}

const signalOf = (signal: AbortSignal | undefined): { signal?: AbortSignal } => (signal === undefined ? {} : { signal });

const errorTextOf = (options: A2AChatTransportOptions): { errorText?: (error: unknown) => string; onError?: (error: unknown) => void } => ({
  ...(options.errorText === undefined ? {} : { errorText: options.errorText }),
  ...(options.onError === undefined ? {} : { onError: options.onError }),
});
