/**
 * The interrupt of a turn in a message's `data-a2a-task` part, both ways: written from the end
 * event's `interrupt`, and read back from the messages `useChat` sends (a browser's, so untrusted:
 * each field read for its type, anything else left out) as the `Interrupt` the answer is built from.
 */
import type { Interrupt } from '../port/events.js';
import type { Elicitation } from '../port/types.js';
import type { A2AElicitationData, A2AInterruptData } from './types.js';

/** The part's data of an end event's interrupt: its kind, question, requests for input and generation (not its task, not its message). */
export function interruptData(interrupt: Interrupt): A2AInterruptData {
  const data: A2AInterruptData = { kind: interrupt.kind, text: interrupt.text };
  if (interrupt.elicitations !== undefined) data.elicitations = interrupt.elicitations.map(elicitationData);
  if (interrupt.generation !== undefined) data.generation = interrupt.generation;
  return data;
}

function elicitationData(elicitation: Elicitation): A2AElicitationData {
  const { id, state, metadata } = elicitation;
  return metadata === undefined ? { id, state } : { id, state, metadata: { ...metadata } };
}

const STATES: ReadonlySet<string> = new Set(['waiting', 'blocked', 'resolved', 'unknown']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A request for input read back: an id and a state it knows, else nothing (its metadata is not read: an answer names ids only). */
function elicitationOf(value: unknown): Elicitation | undefined {
  if (!isRecord(value) || typeof value['id'] !== 'string' || typeof value['state'] !== 'string') return undefined;
  return STATES.has(value['state']) ? { id: value['id'], state: value['state'] as Elicitation['state'] } : undefined;
}

/**
 * The interrupt a waiting task's part data says (`outcome` `input-required` or `auth-required`, a
 * `taskId`): its `interrupt` when it has one, else the bare question of a history message (the task
 * alone: no generation, no requests). Undefined when the task does not wait. The ids and bounds of
 * what it gives are checked again by the turn, as any caller's.
 */
export function interruptOf(data: Record<string, unknown>): Interrupt | undefined {
  const { outcome, taskId } = data;
  if ((outcome !== 'input-required' && outcome !== 'auth-required') || typeof taskId !== 'string') return undefined;
  const said = isRecord(data['interrupt']) ? data['interrupt'] : {};
  const interrupt: Interrupt = {
    kind: outcome === 'auth-required' ? 'auth' : 'input',
    taskId,
    text: typeof said['text'] === 'string' ? said['text'] : '',
  };
  if (typeof data['contextId'] === 'string') interrupt.contextId = data['contextId'];
  if (Array.isArray(said['elicitations'])) {
    interrupt.elicitations = said['elicitations'].flatMap((value) => elicitationOf(value) ?? []);
  }
  const generation = said['generation'];
  if (typeof generation === 'number' && Number.isSafeInteger(generation) && generation >= 1) interrupt.generation = generation;
  return interrupt;
}
