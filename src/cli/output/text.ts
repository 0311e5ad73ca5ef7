import { type AgentEvent, type AgentMessage, type Artifact, type Part, type SendResult, type Task, WIRE_STATES } from '../../node/index.js';
import type { TextBlock, TextRecord } from './output.js';

/**
 * The `text` floor's records of the agent's objects (the specification's §9.2): the same labels on
 * every command — `Task ID`, `Context ID`, `State` (the wire name, `TASK_STATE_COMPLETED`), `Message ID`,
 * `Artifact ID` — then one block per content: `Status Message:`, `Artifact: <name>`, `Message:`. A text
 * part is its text, a data part formatted JSON, a file part one line with its name, media type and size
 * (or URL): no part is left out.
 */

/** A task: its ids and state, its status message, its artifacts. */
export function taskRecord(task: Task): TextRecord {
  const blocks: TextBlock[] = [];
  if (task.status.message !== undefined) blocks.push({ label: 'Status Message', body: partsText(task.status.message.parts) });
  for (const artifact of task.artifacts) blocks.push(artifactBlock(artifact));
  return {
    fields: [
      ['Task ID', task.id],
      ['Context ID', task.contextId],
      ['State', WIRE_STATES[task.status.state]],
    ],
    blocks,
  };
}

/** A message (an agent's direct reply, no task): its ids, then its parts. */
export function messageRecord(message: AgentMessage): TextRecord {
  return {
    fields: [
      ['Message ID', message.messageId],
      ['Context ID', message.contextId],
      ['Task ID', message.taskId],
    ],
    blocks: [{ label: 'Message', body: partsText(message.parts) }],
  };
}

/** A blocking send's answer: the task or the message. */
export function sendRecord(result: SendResult): TextRecord {
  return result.kind === 'task' ? taskRecord(result.task) : messageRecord(result.message);
}

/**
 * One event of a stream (`--stream`): a task or message as above, a status update's ids and state
 * (and its message), an artifact update's ids and its chunk. A sign of life is no record: undefined.
 */
export function eventRecord(event: AgentEvent): TextRecord | undefined {
  switch (event.kind) {
    case 'task':
      return taskRecord(event.task);
    case 'message':
      return messageRecord(event.message);
    case 'status': {
      const message = event.status.message;
      return {
        fields: [
          ['Task ID', event.taskId || undefined],
          ['Context ID', event.contextId],
          ['State', WIRE_STATES[event.status.state]],
        ],
        blocks: message === undefined ? [] : [{ label: 'Status Message', body: partsText(message.parts) }],
      };
    }
    case 'artifact':
      return {
        fields: [
          ['Task ID', event.taskId || undefined],
          ['Context ID', event.contextId],
          ['Artifact ID', event.artifact.artifactId],
          ['Append', event.append || undefined],
          ['Last Chunk', event.lastChunk || undefined],
        ],
        blocks: [artifactBlock(event.artifact)],
      };
    default:
      return undefined;
  }
}

function artifactBlock(artifact: Artifact): TextBlock {
  return { label: 'Artifact', value: artifact.name ?? artifact.artifactId, body: partsText(artifact.parts) };
}

/**
 * Parts as readable text, in order: text as it is (text parts in a row run on, as the chunks of one
 * reply do), data as indented JSON and a file as one `[file]` line, each on lines of their own.
 */
export function partsText(parts: readonly Part[]): string {
  let text = '';
  let previous: Part['kind'] | undefined;
  for (const part of parts) {
    if (previous !== undefined && !(previous === 'text' && part.kind === 'text')) text += '\n';
    text += partText(part);
    previous = part.kind;
  }
  return text;
}

function partText(part: Part): string {
  switch (part.kind) {
    case 'text':
      return part.text;
    case 'data':
      return JSON.stringify(part.data, null, 2) ?? 'null';
    case 'file': {
      const type = part.mediaType ?? 'application/octet-stream';
      const where = part.bytes !== undefined ? `${part.bytes.length} bytes` : (part.uri ?? 'no content');
      return `[file] ${part.name ?? '(unnamed)'} (${type}, ${where})`;
    }
  }
}
