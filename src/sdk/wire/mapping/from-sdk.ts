import type {
  Artifact as SdkArtifact,
  Message as SdkMessage,
  Part as SdkPart,
  StreamResponse,
  Task as SdkTask,
  TaskStatus as SdkTaskStatus,
} from '@a2a-js/sdk';
import { Role, TaskState as SdkTaskState } from '@a2a-js/sdk';
import { A2AError } from '../../../errors.js';
import type { AgentEvent, AgentMessage, Artifact, FilePart, Part, SendResult, Task, TaskState, TaskStatus } from '../../../port/types.js';
import { checkAgentId, type AgentIdField } from '../../../render/ids.js';
import { APPEND_MARK } from './append-mark.js';
import { STRING_STATUS_ID } from './status-text.js';

/**
 * The SDK's shapes (the same for v1.0 and, translated by its compat layer, v0.3) mapped into the
 * ladder's domain types. A field the ladder relies on that is missing is a protocol error naming it;
 * so is an id (a task's, a context's, a message's, an artifact's) too long or holding a control
 * character (`render/ids.ts`): every binding's results come through here, or through a fast path
 * that checks the same.
 */

/** The task states the ladder knows, by the SDK's enum (any other reads as `unknown`). */
export const STATES: Partial<Record<SdkTaskState, TaskState>> = {
  [SdkTaskState.TASK_STATE_SUBMITTED]: 'submitted',
  [SdkTaskState.TASK_STATE_WORKING]: 'working',
  [SdkTaskState.TASK_STATE_COMPLETED]: 'completed',
  [SdkTaskState.TASK_STATE_FAILED]: 'failed',
  [SdkTaskState.TASK_STATE_CANCELED]: 'canceled',
  [SdkTaskState.TASK_STATE_INPUT_REQUIRED]: 'input-required',
  [SdkTaskState.TASK_STATE_REJECTED]: 'rejected',
  [SdkTaskState.TASK_STATE_AUTH_REQUIRED]: 'auth-required',
};

/** The SDK's enum of a task state the ladder knows (`unknown` is UNSPECIFIED). */
export function sdkStateOf(state: TaskState): SdkTaskState {
  for (const [sdk, ours] of Object.entries(STATES)) if (ours === state) return Number(sdk) as SdkTaskState;
  return SdkTaskState.TASK_STATE_UNSPECIFIED;
}

function malformed(field: string): A2AError {
  return new A2AError({ kind: 'protocol', message: `malformed event from the agent: ${field} is missing` });
}

/** `id`, once checked (`checkAgentId`: bounded, no control character). */
function agentId(id: string, what: AgentIdField): string {
  checkAgentId(id, what);
  return id;
}

function metadataOf(value: { [key: string]: unknown } | undefined): Record<string, unknown> | undefined {
  return value === undefined || value === null ? undefined : value;
}

export function fromSdkPart(part: SdkPart): Part {
  const content = part.content;
  let out: Part;
  switch (content?.$case) {
    case 'text':
      out = { kind: 'text', text: content.value };
      break;
    case 'data':
      out = { kind: 'data', data: content.value };
      if (part.mediaType) out.mediaType = part.mediaType;
      break;
    case 'url':
      out = fileOf(part, { kind: 'file', uri: content.value });
      break;
    case 'raw':
      // The SDK's codec (and its v0.3 translation) decoded the base64 into a Buffer, a Uint8Array: kept as it is.
      out = fileOf(part, { kind: 'file', bytes: content.value });
      break;
    default:
      out = fileOf(part, { kind: 'file' });
  }
  if (part.metadata) out.metadata = part.metadata;
  return out;
}

function fileOf(part: SdkPart, out: FilePart): FilePart {
  if (part.mediaType) out.mediaType = part.mediaType;
  if (part.filename) out.name = part.filename;
  return out;
}

export function fromSdkMessage(message: SdkMessage): AgentMessage {
  const out: AgentMessage = { role: message.role === Role.ROLE_USER ? 'user' : 'agent', parts: (message.parts ?? []).map(fromSdkPart) };
  // A status message the agent gave as a plain string has no id of its own (status-text.ts).
  if (message.messageId && message.messageId !== STRING_STATUS_ID) out.messageId = agentId(message.messageId, 'message');
  if (message.contextId) out.contextId = agentId(message.contextId, 'context');
  if (message.taskId) out.taskId = agentId(message.taskId, 'task');
  const metadata = metadataOf(message.metadata);
  if (metadata) out.metadata = metadata;
  return out;
}

function fromSdkStatus(status: SdkTaskStatus | undefined, where: string): TaskStatus {
  if (status === undefined || status === null) throw malformed(`${where}.status`);
  const out: TaskStatus = { state: STATES[status.state] ?? 'unknown' };
  if (status.message) out.message = fromSdkMessage(status.message);
  if (status.timestamp) out.timestamp = status.timestamp;
  return out;
}

function fromSdkArtifact(artifact: SdkArtifact): Artifact {
  const out: Artifact = { artifactId: agentId(artifact.artifactId, 'artifact'), parts: (artifact.parts ?? []).map(fromSdkPart) };
  if (artifact.name) out.name = artifact.name;
  const metadata = metadataOf(artifact.metadata);
  if (metadata) out.metadata = metadata;
  return out;
}

export function fromSdkTask(task: SdkTask): Task {
  if (!task.id) throw malformed('task.id');
  const out: Task = {
    id: agentId(task.id, 'task'),
    status: fromSdkStatus(task.status, 'task'),
    artifacts: (task.artifacts ?? []).map(fromSdkArtifact),
  };
  if (task.contextId) out.contextId = agentId(task.contextId, 'context');
  if (task.history?.length) out.history = task.history.map(fromSdkMessage);
  const metadata = metadataOf(task.metadata);
  if (metadata) out.metadata = metadata;
  return out;
}

/** The event's metadata without the append mark the HTTP+JSON repair put in (`fetch/rest-append.ts`), and whether it was there. */
function withoutAppendMark(metadata: Record<string, unknown> | undefined): {
  metadata: Record<string, unknown> | undefined;
  marked: boolean;
} {
  if (metadata === undefined || !(APPEND_MARK in metadata)) return { metadata, marked: false };
  const { [APPEND_MARK]: mark, ...rest } = metadata;
  return { metadata: Object.keys(rest).length > 0 ? rest : undefined, marked: mark === true };
}

const NO_MARK = { metadata: undefined, marked: false } as const;

/** One stream event. */
export function fromSdkEvent(event: StreamResponse): AgentEvent {
  const payload = event.payload;
  switch (payload?.$case) {
    case 'task':
      return { kind: 'task', task: fromSdkTask(payload.value) };
    case 'message':
      return { kind: 'message', message: fromSdkMessage(payload.value) };
    case 'statusUpdate': {
      const update = payload.value;
      // Some servers leave `taskId` out: '' means "the turn's task" to the ladder (it follows one task).
      const out: AgentEvent = {
        kind: 'status',
        taskId: agentId(update.taskId ?? '', 'task'),
        status: fromSdkStatus(update.status, 'statusUpdate'),
      };
      if (update.contextId) out.contextId = agentId(update.contextId, 'context');
      const metadata = metadataOf(update.metadata);
      if (metadata) out.metadata = metadata;
      return out;
    }
    case 'artifactUpdate': {
      const update = payload.value;
      if (!update.artifact) throw malformed('artifactUpdate.artifact');
      if (!update.artifact.artifactId) throw malformed('artifactUpdate.artifact.artifactId');
      const sent = metadataOf(update.metadata);
      const { metadata, marked } = sent === undefined ? NO_MARK : withoutAppendMark(sent);
      const out: AgentEvent = {
        kind: 'artifact',
        taskId: agentId(update.taskId ?? '', 'task'),
        artifact: fromSdkArtifact(update.artifact),
        append: update.append === true || marked,
        lastChunk: update.lastChunk === true,
      };
      if (update.contextId) out.contextId = agentId(update.contextId, 'context');
      if (metadata) out.metadata = metadata;
      return out;
    }
    default:
      throw malformed('the event payload (task, message, statusUpdate or artifactUpdate)');
  }
}

/** A blocking send's result: a task or a message. */
export function fromSdkResult(result: SdkTask | SdkMessage): SendResult {
  if ('role' in result && 'messageId' in result) return { kind: 'message', message: fromSdkMessage(result) };
  return { kind: 'task', task: fromSdkTask(result as SdkTask) };
}
