/**
 * Messages between the AI SDK and A2A: a history page as `useChat` messages, the person's last
 * message as the turn's input, the agent's pending question, and the reply text of a message.
 */
import { A2AError } from '../errors.js';
import { publicErrorText } from './error-text.js';
import type { Attachment, Interrupt, UserMessage } from '../port/events.js';
import type { HistoryExchange, HistoryPage } from '../port/history.js';
import type { OutgoingData, OutgoingFile } from '../port/types.js';
import { dataOf } from './chunks.js';
import { filePartOf, outgoingFileOf } from './files.js';
import { interruptOf } from './interrupt.js';
import { surfaceParts } from './surfaces.js';
import type { A2AMessageLike, A2APartLike, A2ATaskData, A2AUIMessage, A2AUIPart } from './types.js';
import { usageMetadataOf } from './usage.js';

/** The id of the assistant message that shows the agent's task `taskId` (in a history page and a resumed reply). */
export function replyMessageId(taskId: string): string {
  return `a2a-reply-${taskId}`;
}

/** A person's or agent's files and data parts as message parts (a file with neither bytes nor URI is left out). */
function attachmentParts(attachments: readonly Attachment[] | undefined): A2AUIPart[] {
  return (attachments ?? []).flatMap((attachment): A2AUIPart[] => {
    if (attachment.kind === 'data') return [{ type: 'data-a2a-data', data: dataOf(attachment) }];
    const part = filePartOf(attachment);
    return part === undefined ? [] : [part];
  });
}

function userMessage(message: UserMessage, taskId: string, index: number): A2AUIMessage {
  const parts: A2AUIPart[] = message.text === '' ? [] : [{ type: 'text', text: message.text, state: 'done' }];
  return {
    id: message.messageId ?? `a2a-user-${taskId}-${index}`,
    role: 'user',
    parts: [...parts, ...attachmentParts(message.attachments)],
  };
}

function replyMessage(exchange: HistoryExchange, contextId: string): A2AUIMessage {
  const task: A2ATaskData = { taskId: exchange.taskId, contextId };
  if (exchange.outcome !== undefined) task.outcome = exchange.outcome;
  // The browser's words, never the library's message (it may name the agent's internal URL): as a failed turn's error chunk.
  if (exchange.error !== undefined) task.error = publicErrorText(exchange.error);
  const parts: A2AUIPart[] = [
    { type: 'data-a2a-task', id: 'task', data: task },
    { type: 'data-a2a-status', id: 'status', data: { state: exchange.state } },
  ];
  if (exchange.reply !== '') parts.push({ type: 'text', text: exchange.reply, state: 'done' });
  const surfaces = surfaceParts(exchange.surfaces);
  return {
    id: replyMessageId(exchange.taskId),
    role: 'assistant',
    parts: [...parts, ...attachmentParts(exchange.attachments), ...surfaces],
    ...usageMetadataOf(exchange.usage),
  };
}

/**
 * A history page (`client.history`) as `useChat` messages, oldest first: per exchange the person's
 * messages (their A2A `messageId` as id when the agent kept it), then the agent's reply as an
 * assistant message whose id is `replyMessageId(taskId)`, with its `data-a2a-task` (the task and its
 * outcome: a question's task says `input-required`) and `data-a2a-status` parts, its text, files and
 * data parts, and a `data-a2a-surface` part per A2UI surface when the exchange carries its surfaces
 * (`surfaces`, as the task's snapshot draws them), and `metadata.usage` when the exchange carries usage
 * (`HistoryExchange.usage`; none reported, no metadata). A reply still in progress is
 * there as far as it got: a resumed reply (`resume: true`) replaces that message in place, since its
 * `start` chunk names the same id.
 */
export function historyToUIMessages(page: HistoryPage): A2AUIMessage[] {
  return page.exchanges.flatMap((exchange) => [
    ...exchange.user.map((message, index) => userMessage(message, exchange.taskId, index)),
    replyMessage(exchange, page.contextId),
  ]);
}

/** A part's field, when it is a string. */
const stringField = (part: A2APartLike, name: string): string | undefined => {
  const value = (part as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
};

/** A part's `data` field, when it has one. */
const dataField = (part: A2APartLike): Record<string, unknown> | undefined => {
  const value = (part as { data?: unknown }).data;
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
};

/** What a turn sends for one `useChat` message: its text parts joined, its file parts, its `data-a2a-data` parts. */
export interface SentMessage {
  /** The text parts, joined. */
  text: string;
  /** The file parts: a `data:` URL as bytes, any other URL as a URI. */
  files: OutgoingFile[];
  /** The `data-a2a-data` parts. */
  data: OutgoingData[];
}

/** The person's message as a turn sends it (other parts, e.g. an app's own data parts, are not sent). */
export function sentMessageOf(message: A2AMessageLike): SentMessage {
  const sent: SentMessage = { text: '', files: [], data: [] };
  for (const part of message.parts) {
    const text = stringField(part, 'text');
    const url = stringField(part, 'url');
    const mediaType = stringField(part, 'mediaType');
    if (part.type === 'text' && text !== undefined) sent.text += text;
    else if (part.type === 'file' && url !== undefined && mediaType !== undefined) {
      const filename = stringField(part, 'filename');
      sent.files.push(outgoingFileOf(filename === undefined ? { url, mediaType } : { url, mediaType, filename }));
    } else if (part.type === 'data-a2a-data' && dataField(part) !== undefined) {
      sent.data.push(dataOf(dataField(part) as { data: unknown; mediaType?: string }));
    }
  }
  return sent;
}

/** The last message, which must be the person's: what `sendMessages` sends. */
export function lastUserMessage(messages: readonly A2AMessageLike[]): A2AMessageLike {
  const last = messages.at(-1);
  if (last?.role !== 'user') {
    throw new A2AError({
      kind: 'input',
      operation: 'turn',
      message: "the chat's last message is not the person's: there is nothing to send",
    });
  }
  return last;
}

/**
 * The question the person's last message answers: the interrupt of the assistant message just before
 * it, when that message's `data-a2a-task` says its task waits (`input-required`, `auth-required`):
 * its generation and requests for input as the end said them, or the task alone (a history message).
 * Carried by the messages, so it holds after a reload and on any replica.
 */
export function questionOf(messages: readonly A2AMessageLike[]): Interrupt | undefined {
  const before = messages.at(-2);
  if (before?.role !== 'assistant') return undefined;
  const task = before.parts.find((part) => part.type === 'data-a2a-task');
  const data = task === undefined ? undefined : dataField(task);
  return data === undefined ? undefined : interruptOf(data);
}

/** Whether `part` is a text the reply no longer shows: a correction replaced it (`{ a4h: { replaced: true } }`). */
export function isReplacedText(part: A2APartLike): boolean {
  const metadata = (part as { providerMetadata?: { a4h?: { replaced?: unknown } } }).providerMetadata;
  return part.type === 'text' && metadata?.a4h?.replaced === true;
}

/** A message's reply text: its text parts joined, without those a correction replaced. */
export function replyTextOf(message: A2AMessageLike): string {
  return message.parts
    .filter((part) => part.type === 'text' && !isReplacedText(part))
    .map((part) => stringField(part, 'text') ?? '')
    .join('');
}
