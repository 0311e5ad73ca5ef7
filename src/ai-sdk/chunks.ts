/**
 * A turn's events as UI message chunks, one turn at a time: the reply as text parts, files as file
 * parts, the task, its status, data parts, framework records and A2UI surfaces as `data-a2a-*` parts, the
 * agent's usage as message metadata, the end as the task's outcome (and, on a question, its interrupt) and a
 * `finish` (with the turn's usage), an error as an `error` chunk.
 */
import type { Attachment, EndEvent, TurnEvent } from '../port/events.js';
import type { TaskState } from '../port/types.js';
import { publicErrorText } from './error-text.js';
import { filePartOf } from './files.js';
import { interruptData } from './interrupt.js';
import { refusedChunk, TurnSurfaces } from './surfaces.js';
import type { A2AUIMessageChunk } from './chunk-types.js';
import type { A2AData, A2APartMetadata, A2ATaskData } from './types.js';
import { StreamedUsage } from './usage.js';

/** The `providerMetadata` of a text part the reply no longer shows (a correction replaced it). */
export const REPLACED: A2APartMetadata = { a4h: { replaced: true } };

/**
 * How a turn's end finishes its message, in the reasons `ai` 6 and 7 share: a completed turn whose
 * reply the turn did not get is no plain `stop`, but `other` (its task data says why).
 */
function finishReasonOf(event: EndEvent): 'stop' | 'error' | 'other' {
  const { outcome } = event;
  if (outcome === 'completed') return event.replyMissing === undefined ? 'stop' : 'other';
  return outcome === 'failed' || outcome === 'rejected' ? 'error' : 'other';
}

/**
 * The chunks of one turn, event by event (one per turn: it keeps the open text part and the task).
 * Reply text appends to the open text part. A `replace` whose text extends what the part shows
 * appends the rest; any other (a correction) ends the part marked `{ a4h: { replaced: true } }` and
 * opens a new one with the whole text: `useChat` cannot shorten a part, so the reply is the text
 * parts not marked replaced (`replyTextOf`). A surface's events update its one `data-a2a-surface` part
 * (id its `surfaceId`): the turn's messages about it so far. The turn's running usage is the message's
 * `metadata.usage` (a `message-metadata` chunk when it changes), its total on `finish`.
 */
export class TurnChunks {
  private textId: string | undefined;
  private shown = '';
  private texts = 0;
  private task: A2ATaskData = {};
  private readonly surfaces = new TurnSurfaces();
  private readonly usage = new StreamedUsage();

  constructor(private readonly errorText: (error: unknown) => string = publicErrorText) {}

  /** The chunks of `event` (none for the ladder's notes and the ids' events). */
  of(event: TurnEvent): A2AUIMessageChunk[] {
    switch (event.type) {
      case 'task':
        this.task = event.contextId === undefined ? { taskId: event.taskId } : { taskId: event.taskId, contextId: event.contextId };
        return [{ type: 'data-a2a-task', id: 'task', data: { ...this.task } }];
      case 'status':
        return [statusChunk(event.state, event.text)];
      case 'auth-required':
        return [statusChunk('auth-required', event.text)];
      case 'text':
        return this.text(event.text, event.replace);
      case 'attachment':
        return attachmentChunks(event.attachment);
      case 'activity': {
        const { kind, name, data } = event;
        return [{ type: 'data-a2a-activity', data: name === undefined ? { kind, data } : { kind, name, data } }];
      }
      case 'surface':
        return [this.surfaces.of(event)];
      case 'surface-refused':
        return [refusedChunk(event)];
      case 'usage': {
        const messageMetadata = this.usage.of(event.total);
        return messageMetadata === undefined ? [] : [{ type: 'message-metadata', messageMetadata }];
      }
      case 'end':
        return this.end(event);
      default:
        return [];
    }
  }

  /** The chunks of the turn's error: the open text part ended, then the error. */
  error(error: unknown): A2AUIMessageChunk[] {
    return [...this.closeText(), { type: 'error', errorText: this.errorText(error) }];
  }

  /** The chunks of a turn left before its end (a Stop): the open text part ended, then `abort`. */
  abort(): A2AUIMessageChunk[] {
    return [...this.closeText(), { type: 'abort' }];
  }

  private text(text: string, replace: boolean): A2AUIMessageChunk[] {
    if (!replace || text.startsWith(this.shown)) return this.append(replace ? text.slice(this.shown.length) : text);
    const out: A2AUIMessageChunk[] = [];
    if (this.textId !== undefined) out.push({ type: 'text-end', id: this.textId, providerMetadata: REPLACED });
    this.textId = undefined;
    this.shown = '';
    return [...out, ...this.append(text)];
  }

  private append(delta: string): A2AUIMessageChunk[] {
    if (delta === '') return [];
    const out: A2AUIMessageChunk[] = [];
    if (this.textId === undefined) {
      this.textId = `text-${++this.texts}`;
      out.push({ type: 'text-start', id: this.textId });
    }
    this.shown += delta;
    out.push({ type: 'text-delta', id: this.textId, delta });
    return out;
  }

  private closeText(): A2AUIMessageChunk[] {
    const id = this.textId;
    this.textId = undefined;
    return id === undefined ? [] : [{ type: 'text-end', id }];
  }

  private end(event: EndEvent): A2AUIMessageChunk[] {
    const task: A2ATaskData = { ...this.task, outcome: event.outcome };
    if (event.taskId !== undefined) task.taskId = event.taskId;
    if (event.contextId !== undefined) task.contextId = event.contextId;
    if (event.replyMissing !== undefined) task.replyMissing = event.replyMissing.reason;
    if (event.interrupt !== undefined) task.interrupt = interruptData(event.interrupt);
    const finishReason = finishReasonOf(event);
    return [
      ...this.closeText(),
      { type: 'data-a2a-task', id: 'task', data: task },
      event.usage === undefined
        ? { type: 'finish', finishReason }
        : { type: 'finish', finishReason, messageMetadata: this.usage.finish(event.usage) },
    ];
  }
}

function statusChunk(state: TaskState, text: string | undefined): A2AUIMessageChunk {
  return { type: 'data-a2a-status', id: 'status', data: text === undefined ? { state } : { state, text } };
}

/** A file as a file chunk (nothing for a file with neither bytes nor URI), a data part as `data-a2a-data`. */
function attachmentChunks(attachment: Attachment): A2AUIMessageChunk[] {
  if (attachment.kind === 'data') return [{ type: 'data-a2a-data', data: dataOf(attachment) }];
  const part = filePartOf(attachment);
  if (part === undefined) return [];
  const { filename: _name, ...chunk } = part;
  return [chunk];
}

/** A data attachment's value and media type. */
export function dataOf(attachment: { data: unknown; mediaType?: string }): A2AData {
  return attachment.mediaType === undefined ? { data: attachment.data } : { data: attachment.data, mediaType: attachment.mediaType };
}
