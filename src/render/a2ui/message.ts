/** An A2UI message read from the agent's JSON: its kind, its surface, its version, the message as sent. */
import type { A2UIMessage, A2UIMessageKind } from '../../port/a2ui.js';

const KINDS: ReadonlySet<string> = new Set<A2UIMessageKind>([
  'createSurface',
  'updateComponents',
  'updateDataModel',
  'deleteSurface',
  'actionResponse',
  'beginRendering',
  'surfaceUpdate',
  'dataModelUpdate',
]);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * One A2UI message read, or why it cannot be: an object with exactly one known kind key (besides
 * `version`) whose body names a surface (`surfaceId`, a non-empty string of at most 256 characters) or,
 * for an `actionResponse`, an `actionId`.
 */
export function readA2UIMessage(raw: unknown): A2UIMessage | string {
  if (!isRecord(raw)) return 'an A2UI message is not an object';
  const keys = Object.keys(raw).filter((key) => key !== 'version');
  const kinds = keys.filter((key) => KINDS.has(key));
  if (kinds.length !== 1)
    return kinds.length === 0
      ? 'an A2UI message of no known kind' // its keys are the agent's: a refusal names none of them
      : 'an A2UI message of more than one kind';
  const kind = kinds[0] as A2UIMessageKind;
  const body = raw[kind];
  if (!isRecord(body)) return `an A2UI ${kind} whose body is not an object`;
  const read: A2UIMessage = { kind, message: raw };
  if (typeof raw['version'] === 'string') read.version = raw['version'];
  if (kind === 'actionResponse') {
    return typeof raw['actionId'] === 'string' || typeof body['actionId'] === 'string'
      ? read
      : 'an A2UI actionResponse without its actionId';
  }
  const surfaceId = body['surfaceId'];
  if (typeof surfaceId !== 'string' || surfaceId === '' || surfaceId.length > 256) return `an A2UI ${kind} without a usable surfaceId`;
  read.surfaceId = surfaceId;
  return read;
}
