/**
 * The person's action on an A2UI surface, from their message's `data-a2a-action` part, as the turn
 * sends it: built by `surfaceAction` against the surface an assistant message of the chat created.
 * The messages are a browser's (on a server route, untrusted): each field is read for its type, and
 * of the surface only its creation is read (its version, whether it asked for its data model).
 */
import { surfaceAction, type SurfaceActionAnswer, type SurfaceActionInput } from '../client/surface-action.js';
import { A2AError } from '../errors.js';
import type { A2UIMessage, SurfaceView } from '../port/a2ui.js';
import type { A2AMessageLike, A2APartLike } from './types.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const dataOf = (part: A2APartLike): unknown => (part as { data?: unknown }).data;
const refused = (message: string): A2AError => new A2AError({ kind: 'input', operation: 'turn', message });

/** A surface's creation message read back (its kind, version and body checked), else undefined. */
function creationOf(value: unknown): A2UIMessage | undefined {
  if (!isRecord(value)) return undefined;
  const { kind, version, message } = value;
  if (kind !== 'createSurface' && kind !== 'beginRendering') return undefined;
  if (!isRecord(message) || !isRecord(message[kind]) || (version !== undefined && typeof version !== 'string')) return undefined;
  return version === undefined ? { kind, message } : { kind, version, message };
}

/** The surface `surfaceId` as the newest assistant message that created it holds it: its creation alone. */
function createdSurface(messages: readonly A2AMessageLike[], surfaceId: string): SurfaceView | undefined {
  for (const message of [...messages].reverse()) {
    if (message.role !== 'assistant') continue;
    for (const part of message.parts) {
      const data = dataOf(part);
      if (part.type !== 'data-a2a-surface' || !isRecord(data) || data['surfaceId'] !== surfaceId || !Array.isArray(data['messages']))
        continue;
      const created = data['messages'].map(creationOf).find((found) => found !== undefined);
      if (created !== undefined) return { surfaceId, messages: [created] };
    }
  }
  return undefined;
}

/** The action a `data-a2a-action` part names, its fields read for their types. */
function actionInput(data: unknown): Omit<SurfaceActionInput, 'surface'> & { surfaceId: string } {
  const given = isRecord(data) ? data : {};
  const { surfaceId, name, sourceComponentId, context, timestamp } = given;
  if (typeof surfaceId !== 'string' || typeof name !== 'string' || typeof sourceComponentId !== 'string') {
    throw refused('a data-a2a-action part needs its surfaceId, name and sourceComponentId (strings)');
  }
  if ((context !== undefined && !isRecord(context)) || (timestamp !== undefined && typeof timestamp !== 'string')) {
    throw refused("a data-a2a-action part's context is an object and its timestamp a string");
  }
  const input: Omit<SurfaceActionInput, 'surface'> & { surfaceId: string } = { surfaceId, name, sourceComponentId };
  if (context !== undefined) input.context = context;
  if (timestamp !== undefined) input.timestamp = timestamp;
  if ('dataModel' in given) input.dataModel = given['dataModel'];
  return input;
}

/**
 * The action `message` carries (its first `data-a2a-action` part), as `surfaceAction` gives it for
 * the thread's next turn; undefined when it carries none. A surface no assistant message of
 * `messages` created is refused (an `input` error): an action goes only on a surface the chat shows.
 */
export function sentActionOf(message: A2AMessageLike, messages: readonly A2AMessageLike[]): SurfaceActionAnswer | undefined {
  const part = message.parts.find((candidate) => candidate.type === 'data-a2a-action');
  if (part === undefined) return undefined;
  const { surfaceId, ...action } = actionInput(dataOf(part));
  const surface = createdSurface(messages, surfaceId);
  if (surface === undefined) throw refused(`the surface ${JSON.stringify(surfaceId).slice(0, 80)} is not one the chat's replies created`);
  return surfaceAction({ surface, ...action });
}
