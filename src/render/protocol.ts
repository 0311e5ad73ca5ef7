import type { AgentEvent, AgentMessage, Artifact, Part, SendResult, Task, TaskState, TaskStatus } from '../port/types.js';

/**
 * The agent's objects in A2A v1.0's JSON form (`spec/a2a.proto` rendered with proto JSON names:
 * camelCase fields, `TASK_STATE_*` and `ROLE_*` enum names, a part's `text` / `raw` (base64) / `url` /
 * `data`), for a program that wants what the agent sent rather than a4h's turn events: the A2A CLI
 * specification's `-o json` output. Pure functions over the domain types; nothing runs unless called.
 *
 * What the client keeps of an object is what these give back: ids, states, timestamps, parts, names,
 * metadata. An artifact's `description` and the `extensions` lists are not kept by the client, so they
 * are absent here; an empty field (a status update without a task id) is left out, as proto JSON does.
 */
export type ProtocolJson = Record<string, unknown>;

/** The v1.0 wire names of the task states; `unknown` is the agent's `TASK_STATE_UNSPECIFIED` (or a state the client does not know). */
export const WIRE_STATES: Readonly<Record<TaskState, string>> = {
  submitted: 'TASK_STATE_SUBMITTED',
  working: 'TASK_STATE_WORKING',
  'input-required': 'TASK_STATE_INPUT_REQUIRED',
  'auth-required': 'TASK_STATE_AUTH_REQUIRED',
  completed: 'TASK_STATE_COMPLETED',
  failed: 'TASK_STATE_FAILED',
  canceled: 'TASK_STATE_CANCELED',
  rejected: 'TASK_STATE_REJECTED',
  unknown: 'TASK_STATE_UNSPECIFIED',
};

/** A `Task` as A2A v1.0 JSON. */
export function protocolTask(task: Task): ProtocolJson {
  const out: ProtocolJson = { id: task.id };
  if (task.contextId) out.contextId = task.contextId;
  out.status = protocolStatus(task.status);
  if (task.artifacts.length > 0) out.artifacts = task.artifacts.map(protocolArtifact);
  if (task.history !== undefined && task.history.length > 0) out.history = task.history.map(protocolMessage);
  if (task.metadata !== undefined) out.metadata = task.metadata;
  return out;
}

/** A `Message` as A2A v1.0 JSON. */
export function protocolMessage(message: AgentMessage): ProtocolJson {
  const out: ProtocolJson = {};
  if (message.messageId) out.messageId = message.messageId;
  if (message.contextId) out.contextId = message.contextId;
  if (message.taskId) out.taskId = message.taskId;
  out.role = message.role === 'user' ? 'ROLE_USER' : 'ROLE_AGENT';
  out.parts = message.parts.map(protocolPart);
  if (message.metadata !== undefined) out.metadata = message.metadata;
  return out;
}

/**
 * One event of a stream as the v1.0 `StreamResponse` it came as: `{ task }`, `{ message }`,
 * `{ statusUpdate }` or `{ artifactUpdate }`. A sign of life (`alive`) is no response: undefined.
 */
export function protocolStreamResponse(event: AgentEvent): ProtocolJson | undefined {
  switch (event.kind) {
    case 'task':
      return { task: protocolTask(event.task) };
    case 'message':
      return { message: protocolMessage(event.message) };
    case 'status':
      return { statusUpdate: { ...ids(event), status: protocolStatus(event.status), ...meta(event.metadata) } };
    case 'artifact':
      return {
        artifactUpdate: {
          ...ids(event),
          artifact: protocolArtifact(event.artifact),
          ...(event.append ? { append: true } : {}),
          ...(event.lastChunk ? { lastChunk: true } : {}),
          ...meta(event.metadata),
        },
      };
    default:
      return undefined;
  }
}

/** A blocking send's answer as the v1.0 `SendMessageResponse`: `{ task }` or `{ message }`. */
export function protocolSendResponse(result: SendResult): ProtocolJson {
  return result.kind === 'task' ? { task: protocolTask(result.task) } : { message: protocolMessage(result.message) };
}

function protocolStatus(status: TaskStatus): ProtocolJson {
  const out: ProtocolJson = { state: WIRE_STATES[status.state] };
  if (status.message !== undefined) out.message = protocolMessage(status.message);
  if (status.timestamp !== undefined) out.timestamp = status.timestamp;
  return out;
}

function protocolArtifact(artifact: Artifact): ProtocolJson {
  const out: ProtocolJson = { artifactId: artifact.artifactId };
  if (artifact.name) out.name = artifact.name;
  out.parts = artifact.parts.map(protocolPart);
  if (artifact.metadata !== undefined) out.metadata = artifact.metadata;
  return out;
}

function protocolPart(part: Part): ProtocolJson {
  const out: ProtocolJson = {};
  if (part.kind === 'text') out.text = part.text;
  else if (part.kind === 'data') out.data = part.data;
  else if (part.bytes !== undefined) out.raw = base64Of(part.bytes);
  else if (part.uri !== undefined) out.url = part.uri;
  if (part.kind === 'file' && part.name) out.filename = part.name;
  if (part.kind !== 'text' && part.mediaType) out.mediaType = part.mediaType;
  if (part.metadata !== undefined) out.metadata = part.metadata;
  return out;
}

function ids(event: { taskId: string; contextId?: string }): ProtocolJson {
  const out: ProtocolJson = {};
  if (event.taskId) out.taskId = event.taskId;
  if (event.contextId) out.contextId = event.contextId;
  return out;
}

const meta = (metadata: Record<string, unknown> | undefined): ProtocolJson => (metadata === undefined ? {} : { metadata });

/** Bytes as base64, in chunks (a large file's bytes do not fit one call's arguments); the browser has no Buffer. */
function base64Of(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}
