import { taskStateToJSON } from '@a2a-js/sdk';
import type { AgentEvent, Part, TaskState, TaskStatus } from '../../../port/types.js';
import { isKeptId } from '../../../render/ids.js';
import { STATES as SDK_STATES } from '../mapping/from-sdk.js';
import type { StreamIds } from './results.js';

type Json = Record<string, unknown>;

/** The v1.0 task states by their wire names (`TASK_STATE_WORKING`…): `mapping/from-sdk.ts`'s table, keyed as the wire spells it. */
const STATES: Record<string, TaskState> = Object.fromEntries(
  Object.entries(SDK_STATES).map(([value, state]) => [taskStateToJSON(Number(value)), state]),
);

const isPlain = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The two v1.0 stream results that make up almost every stream — a text-only artifact chunk and a
 * status update without a message — read straight from their JSON into agent events, without the
 * SDK's codec and our mapping of its objects (about a third of a chunk's cost after `JSON.parse`).
 *
 * Only the exact shapes: any other key (metadata, snake_case names, a `message`), any non-string id,
 * any part that is not `{ text }`, an unknown state, an id the client does not keep (`render/ids.ts`), returns undefined, and the result takes the general
 * path (`toStreamResponse` → `fromSdkEvent`), which also reports what is malformed. Where this path
 * answers, both paths give the same event and remember the same ids (`test/sdk/wire/fast-path.test.ts`).
 */
export function fastEvent(result: unknown, ids: StreamIds): AgentEvent | undefined {
  if (!isPlain(result)) return undefined;
  let event: AgentEvent | undefined;
  for (const key in result) {
    if (event !== undefined) return undefined; // one case per result
    const update = result[key];
    if (!isPlain(update)) return undefined;
    if (key === 'artifactUpdate') event = textChunk(update);
    else if (key === 'statusUpdate') event = bareStatus(update);
    if (event === undefined) return undefined;
  }
  if (event === undefined || event.kind === 'alive' || event.kind === 'task' || event.kind === 'message') return undefined;
  // An id the stream told before was checked then; a new one the client does not keep is left to the general path, which says so.
  if (
    (event.taskId !== ids.taskId && !isKeptId(event.taskId)) ||
    (event.contextId !== undefined && event.contextId !== ids.contextId && !isKeptId(event.contextId))
  )
    return undefined;
  if (event.kind === 'artifact' && !isKeptId(event.artifact.artifactId)) return undefined;
  ids.taskId ||= event.taskId;
  ids.contextId ||= event.contextId ?? '';
  return event;
}

/** `{ taskId, contextId, artifact: { artifactId, name?, parts: [{ text }…] }, append?, lastChunk? }`. */
function textChunk(update: Json): AgentEvent | undefined {
  let taskId = '';
  let contextId = '';
  let append = false;
  let lastChunk = false;
  let artifact: Json | undefined;
  for (const key in update) {
    const value = update[key];
    switch (key) {
      case 'taskId':
      case 'contextId':
        if (typeof value !== 'string') return undefined;
        if (key === 'taskId') taskId = value;
        else contextId = value;
        break;
      case 'append':
      case 'lastChunk':
        if (typeof value !== 'boolean') return undefined;
        if (key === 'append') append = value;
        else lastChunk = value;
        break;
      case 'artifact':
        if (!isPlain(value)) return undefined;
        artifact = value;
        break;
      default:
        return undefined;
    }
  }
  if (artifact === undefined) return undefined;
  let artifactId = '';
  let name = '';
  let parts: Part[] | undefined;
  for (const key in artifact) {
    const value = artifact[key];
    if (key === 'artifactId' && typeof value === 'string') artifactId = value;
    else if (key === 'name' && typeof value === 'string') name = value;
    else if (key === 'parts' && Array.isArray(value)) parts = textParts(value);
    else return undefined;
  }
  if (artifactId === '' || parts === undefined) return undefined;
  const event: AgentEvent = {
    kind: 'artifact',
    taskId,
    artifact: name === '' ? { artifactId, parts } : { artifactId, parts, name },
    append,
    lastChunk,
  };
  if (contextId !== '') event.contextId = contextId;
  return event;
}

/** Parts that are each exactly `{ text }`, or undefined. */
function textParts(parts: unknown[]): Part[] | undefined {
  const out: Part[] = [];
  for (const part of parts) {
    if (!isPlain(part)) return undefined;
    let text: string | undefined;
    for (const key in part) {
      const value = part[key];
      if (key !== 'text' || typeof value !== 'string') return undefined;
      text = value;
    }
    if (text === undefined) return undefined;
    out.push({ kind: 'text', text });
  }
  return out;
}

/** `{ taskId, contextId, status: { state, timestamp? } }`. */
function bareStatus(update: Json): AgentEvent | undefined {
  let taskId = '';
  let contextId = '';
  let status: TaskStatus | undefined;
  for (const key in update) {
    const value = update[key];
    if (key === 'taskId' && typeof value === 'string') taskId = value;
    else if (key === 'contextId' && typeof value === 'string') contextId = value;
    else if (key === 'status' && isPlain(value)) status = bareState(value);
    else return undefined;
    if (key === 'status' && status === undefined) return undefined;
  }
  if (status === undefined) return undefined;
  const event: AgentEvent = { kind: 'status', taskId, status };
  if (contextId !== '') event.contextId = contextId;
  return event;
}

/** `{ state, timestamp? }` as the SDK's mapping reads it (an empty timestamp is none), or undefined for anything else. */
function bareState(status: Json): TaskStatus | undefined {
  let state: TaskState | undefined;
  let timestamp: string | undefined;
  for (const key in status) {
    const value = status[key];
    if (key === 'state' && typeof value === 'string' && Object.hasOwn(STATES, value)) state = STATES[value];
    else if (key === 'timestamp' && typeof value === 'string') timestamp = value;
    else return undefined;
  }
  if (state === undefined) return undefined;
  return timestamp ? { state, timestamp } : { state };
}
