import { StreamResponse } from '@a2a-js/sdk';
import { legacyPushNotificationToV1StreamResponse } from '@a2a-js/sdk/compat/v0_3';
import { A2AError } from '../../../errors.js';
import { remember, type StreamIds } from '../mapping/stream-ids.js';
import { statusStringsIn } from '../mapping/status-text.js';

export type { StreamIds };

type Json = Record<string, unknown>;

/** A v1.0 result: one of the `StreamResponse` cases as its key (checked per event, so without a closure). */
const isV1 = (json: Json): boolean => 'artifactUpdate' in json || 'statusUpdate' in json || 'task' in json || 'message' in json;
/** Stands in for an id an event left out, only while the SDK's v0.3 translation (which wants one) runs. */
const MISSING = '\u0000missing';

/**
 * One stream result as the SDK's v1.0 `StreamResponse`, whichever generation's shape it came in:
 * v1.0 (`{ task }`, `{ statusUpdate }`, …) through the SDK's codec; v0.3 (`kind`) through the SDK's
 * v0.3 translation. Read tolerantly: a v0.3 result without `kind` (v0.2-era servers) is classified
 * by its shape, and a status- or artifact-update without `taskId` or `contextId` gets the stream's
 * (or none: the ladder takes an update that names no task as the turn's), and a status message
 * given as a plain string is read as a message with that text (`mapping/status-text.ts`).
 */
export function toStreamResponse(result: unknown, ids: StreamIds): StreamResponse {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) throw malformed('the result is not an object');
  const json = result as Json;
  statusStringsIn(json);
  if (isV1(json)) return remember(StreamResponse.fromJSON(json), ids);
  const kind = withKinds(json);
  if (kind === undefined) throw malformed('the result is neither a task, a message, a status-update nor an artifact-update');
  const update = kind === 'status-update' || kind === 'artifact-update';
  const filled: Json = update
    ? {
        ...json,
        kind,
        taskId: nonEmpty(json['taskId']) ?? ids.taskId ?? MISSING,
        contextId: nonEmpty(json['contextId']) ?? ids.contextId ?? MISSING,
      }
    : json;
  let response: StreamResponse;
  try {
    response = legacyPushNotificationToV1StreamResponse(filled);
  } catch (cause) {
    throw malformed(cause instanceof Error ? cause.message : String(cause), cause);
  }
  const value = response.payload?.value as { taskId?: string; contextId?: string } | undefined;
  if (value && value.taskId === MISSING) value.taskId = '';
  if (value && value.contextId === MISSING) value.contextId = '';
  return remember(response, ids);
}

/**
 * A v0.3-shaped result with the `kind`s v0.2-era servers leave out, on the result and on its parts
 * (in place); returns the result's kind, or undefined when its shape tells none.
 */
export function withKinds(json: Json): string | undefined {
  const kind = typeof json['kind'] === 'string' ? json['kind'] : kindByShape(json);
  if (kind !== undefined) json['kind'] = kind;
  withPartKinds(json);
  return kind;
}

/** v0.2-era parts say `type` where v0.3 says `kind`, or nothing: a part is classified by its field. */
function withPartKinds(json: Json): void {
  const fix = (parts: unknown): void => {
    if (!Array.isArray(parts)) return;
    for (const part of parts as Json[]) {
      if (typeof part !== 'object' || part === null || typeof part['kind'] === 'string') continue;
      const kind =
        typeof part['type'] === 'string'
          ? part['type']
          : 'text' in part
            ? 'text'
            : 'file' in part
              ? 'file'
              : 'data' in part
                ? 'data'
                : undefined;
      if (kind !== undefined) part['kind'] = kind;
    }
  };
  const message = (value: unknown): void => {
    if (typeof value === 'object' && value !== null) fix((value as Json)['parts']);
  };
  fix(json['parts']);
  message(json['artifact']);
  message((json['status'] as Json | undefined)?.['message']);
  for (const artifact of Array.isArray(json['artifacts']) ? json['artifacts'] : []) message(artifact);
  for (const entry of Array.isArray(json['history']) ? json['history'] : []) message(entry);
}

/** v0.2-era results carry no `kind`: a task has an id and a status, an update a task id, a message a role and parts. */
function kindByShape(json: Json): string | undefined {
  if ('artifact' in json) return 'artifact-update';
  if ('status' in json) return 'id' in json && !('taskId' in json) ? 'task' : 'status-update';
  if ('role' in json && 'parts' in json) return 'message';
  return undefined;
}

function nonEmpty(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function malformed(what: string, cause?: unknown): A2AError {
  return new A2AError({ kind: 'protocol', message: `malformed event from the agent: ${what}`, ...(cause === undefined ? {} : { cause }) });
}
