import type { AgentEvent, Elicitation } from '../../../port/types.js';
import { MAX_ID_CHARS } from '../../../render/ids.js';

type Json = Record<string, unknown>;

const isPlain = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The most elicitations read from one list; the rest are left out (an agent's list is not a place to grow without bound). */
export const MAX_ELICITATIONS = 64;

const STATES: Readonly<Record<string, Elicitation['state']>> = {
  ELICITATION_STATE_WAITING: 'waiting',
  ELICITATION_STATE_BLOCKED: 'blocked',
  ELICITATION_STATE_RESOLVED: 'resolved',
  WAITING: 'waiting',
  BLOCKED: 'blocked',
  RESOLVED: 'resolved',
};

/** One elicitation as ProtoJSON writes it, or undefined when it has no usable id (it cannot be answered by id). */
function elicitationOf(raw: unknown): Elicitation | undefined {
  if (!isPlain(raw)) return undefined;
  const id = raw['elicitationId'];
  if (typeof id !== 'string' || id === '' || id.length > MAX_ID_CHARS || /[\u0000-\u001f\u007f-\u009f]/.test(id)) return undefined;
  const state = typeof raw['state'] === 'string' ? (STATES[raw['state'].toUpperCase()] ?? 'unknown') : 'unknown';
  const elicitation: Elicitation = { id, state };
  if (isPlain(raw['metadata'])) elicitation.metadata = raw['metadata'];
  return elicitation;
}

/**
 * A2A 1.1 (draft, ADR-002, a2aproject/A2A PR #2149): the `elicitations` list of a Task or a TaskStatus
 * as JSON, read since the SDK's 1.0 codec does not know the field. Fails open: a state this client does
 * not know is `unknown`, an entry without an id is left out, and so is anything past
 * {@link MAX_ELICITATIONS}. Undefined when there is no list.
 */
export function elicitationsIn(value: unknown): Elicitation[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const read: Elicitation[] = [];
  for (const raw of value.slice(0, MAX_ELICITATIONS)) {
    const elicitation = elicitationOf(raw);
    if (elicitation !== undefined) read.push(elicitation);
  }
  return read;
}

/** `event` with the elicitations its result's JSON carries (the task's set, its status's delta), changed in place and given back. */
export function withElicitations(event: AgentEvent, result: unknown): AgentEvent {
  if (!isPlain(result)) return event;
  if (event.kind === 'task' && isPlain(result['task'])) {
    const task = result['task'];
    const all = elicitationsIn(task['elicitations']);
    if (all !== undefined) event.task.elicitations = all;
    const delta = isPlain(task['status']) ? elicitationsIn(task['status']['elicitations']) : undefined;
    if (delta !== undefined) event.task.status.elicitations = delta;
  } else if (event.kind === 'status' && isPlain(result['statusUpdate']) && isPlain(result['statusUpdate']['status'])) {
    const delta = elicitationsIn(result['statusUpdate']['status']['elicitations']);
    if (delta !== undefined) event.status.elicitations = delta;
  }
  return event;
}
