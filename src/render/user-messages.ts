import type { ActivityEvent, Attachment, AttachmentEvent, UserMessage } from '../port/events.js';
import type { AgentMessage } from '../port/types.js';
import { AttachmentSet } from './attachments.js';
import { textOf } from './parts.js';

/** The person's messages in a task's history, oldest first (none when the agent sent no history). */
export function userMessages(history: readonly AgentMessage[] | undefined): AgentMessage[] {
  return history?.filter((message) => message.role === 'user') ?? [];
}

/** The newest message of the person's in a task's history, if the agent kept one. */
export function lastUserMessage(history: readonly AgentMessage[] | undefined): AgentMessage | undefined {
  if (history === undefined) return undefined;
  for (let i = history.length - 1; i >= 0; i--) if (history[i]!.role === 'user') return history[i];
  return undefined;
}

/**
 * A message of the person's as a UI shows it: its text parts joined, its files and data parts as
 * attachments (the same shape as the agent's, each once; bytes kept by reference), its id.
 */
export function userMessageOf(message: AgentMessage): UserMessage {
  const events: (AttachmentEvent | ActivityEvent)[] = [];
  // The person's own message, already in memory whole (the port bounds the answer it came in).
  new AttachmentSet(Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY).scan(message.parts, events);
  const attachments: Attachment[] = events.flatMap((event) => (event.type === 'attachment' ? [event.attachment] : []));
  const out: UserMessage = { text: textOf(message.parts) };
  if (attachments.length > 0) out.attachments = attachments;
  if (message.messageId !== undefined) out.messageId = message.messageId;
  return out;
}
