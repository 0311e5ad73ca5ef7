import type { TurnEvent } from '../port/events.js';

/**
 * One turn event as one NDJSON line; a file's bytes in base64, data parts as JSON; errors inside
 * events become `{ kind, message, retryable }`.
 */
export function eventLine(event: TurnEvent | { type: 'error'; error: unknown }): string {
  return jsonLine(event);
}

/** Any value as one NDJSON line, as {@link eventLine} writes an event (bytes in base64, errors as their kind and message). */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value, function (this: Record<string, unknown>, key, value: unknown) {
    // The holder's own value: a Buffer (what the SDK decodes) has turned itself into { type, data } by now.
    const raw = this[key];
    if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
    if (!(value instanceof Error)) return value;
    const error = value as Error & { kind?: string; retryable?: boolean; phase?: string; status?: number };
    return {
      kind: error.kind ?? 'error',
      message: error.message,
      ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
      ...(error.phase === undefined ? {} : { phase: error.phase }),
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  });
}

/**
 * The last line of `send --json` when the turn has no `end`: `{"type":"error","kind","message"}`
 * (plus `retryable`, `status` and the `extensions` the agent requires, when known), for an error, a timeout (kind `timeout`) or a cancel
 * (kind `aborted`).
 */
export function errorLine(kind: string, message: string, error?: unknown): string {
  const detail = error as { retryable?: boolean; status?: number; extensions?: readonly string[] } | undefined;
  return JSON.stringify({
    type: 'error',
    kind,
    message,
    ...(detail?.retryable === undefined ? {} : { retryable: detail.retryable }),
    ...(detail?.status === undefined ? {} : { status: detail.status }),
    ...(detail?.extensions === undefined ? {} : { extensions: detail.extensions }),
  });
}
