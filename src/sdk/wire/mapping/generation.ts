import type { AgentEvent } from '../../../port/types.js';
import { withElicitations } from './elicitations.js';

type Json = Record<string, unknown>;

const isPlain = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A2A 1.1 (draft, `dev-1.1` #1810): the task's `generation` a v1.0-shaped result carries, on its
 * `task`, `statusUpdate` or `artifactUpdate` — a JSON number, or a string as ProtoJSON writes an
 * int64 — read from the result's JSON, since the SDK's 1.0 codec does not know the field. Undefined
 * when there is none, or it is not a whole number from 0 to 2^53.
 */
export function generationIn(result: unknown): number | undefined {
  if (!isPlain(result)) return undefined;
  const carrier = result['task'] ?? result['statusUpdate'] ?? result['artifactUpdate'];
  if (!isPlain(carrier)) return undefined;
  const raw = carrier['generation'];
  const value = typeof raw === 'string' && /^\d{1,16}$/.test(raw) ? Number(raw) : raw;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** `event` with the generation its result's JSON carries, when it carries one (the event is changed in place, and given back). */
export function withGeneration(event: AgentEvent, result: unknown): AgentEvent {
  const generation = generationIn(result);
  if (generation === undefined) return event;
  if (event.kind === 'task') event.task.generation = generation;
  else if (event.kind === 'status' || event.kind === 'artifact') event.generation = generation;
  return event;
}

/**
 * `event` with what A2A 1.1 (draft) adds that the SDK's 1.0 codec drops, read from its result's JSON:
 * the generation and the elicitations (changed in place, and given back).
 */
export function withDraftFields(event: AgentEvent, result: unknown): AgentEvent {
  return withElicitations(withGeneration(event, result), result);
}
