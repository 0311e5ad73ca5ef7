import { toA2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import type { HistoryExchange } from '../port/history.js';
import { isSettled, type Task } from '../port/types.js';
import { TurnRenderer, type TaskFacts } from './renderer.js';
import { UsageLedger } from './usage.js';
import { userMessageOf, userMessages } from './user-messages.js';
import { initialTurnView, reduceTurn } from './view.js';

/** The bounds of one reply, as a turn's policy sets them (`maxReplyChars`, `maxArtifacts`, …). */
export interface ReplyLimits {
  /** The longest reply, in characters. */
  maxChars?: number;
  /** The most artifacts. */
  maxArtifacts?: number;
  /** The bytes of files and data parts. */
  maxAttachmentBytes?: number;
  /** The most files and data parts. */
  maxAttachments?: number;
}

/**
 * One listed task as an exchange: the person's messages from its history, and its snapshot through
 * the turn renderer, folded as a turn's view folds it: the reply is what a live turn would have
 * ended with (its artifacts, else its final status message, else the agent's last answer in its
 * history), its attachments each once, its A2UI surfaces, its outcome, its usage. A running task has the reply so far and no
 * outcome. A reply past `limits` is the exchange's `error`, never the whole history's.
 */
export function exchangeOf(task: Task, limits: ReplyLimits = {}): HistoryExchange {
  const { state, timestamp } = task.status;
  const exchange: HistoryExchange = { taskId: task.id, user: userMessages(task.history).map(userMessageOf), reply: '', state };
  if (timestamp !== undefined) exchange.timestamp = timestamp;
  const facts: TaskFacts = { taskId: task.id, contextId: task.contextId, state, messageOnly: false };
  let events: TurnEvent[];
  try {
    const renderer = new TurnRenderer(facts, limits);
    events = renderer.push({ kind: 'task', task });
    if (isSettled(state)) events.push(...renderer.finish());
  } catch (error) {
    exchange.error = toA2AError(error, 'list-tasks');
    return exchange;
  }
  const view = events.reduce(reduceTurn, initialTurnView);
  exchange.reply = view.reply;
  if (view.attachments !== undefined) exchange.attachments = [...view.attachments];
  if (view.surfaces !== undefined && Object.keys(view.surfaces).length > 0) exchange.surfaces = Object.values(view.surfaces);
  if (view.outcome !== undefined) exchange.outcome = view.outcome;
  // The task's whole history: a turn reads only its own exchange's messages, an exchange is every one of the task's.
  const usage = new UsageLedger(true);
  usage.read({ kind: 'task', task }, []);
  const total = usage.total();
  if (total !== undefined) exchange.usage = total;
  return exchange;
}

/** What an exchange holds, roughly in bytes: its texts' characters, its files' bytes (or URIs), its data as JSON. */
export function exchangeSize(exchange: HistoryExchange): number {
  let size = exchange.reply.length;
  for (const said of exchange.user) size += said.text.length + attachmentsSize(said.attachments);
  for (const surface of exchange.surfaces ?? []) size += jsonLength(surface.messages.map((message) => message.message));
  return size + attachmentsSize(exchange.attachments);
}

function attachmentsSize(attachments: HistoryExchange['attachments']): number {
  let size = 0;
  for (const attachment of attachments ?? []) {
    if (attachment.kind === 'file') size += (attachment.size ?? 0) + (attachment.uri?.length ?? 0);
    else size += jsonLength(attachment.data);
  }
  return size;
}

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? 0;
  } catch {
    return 0;
  }
}
