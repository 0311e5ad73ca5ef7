import type { TurnEvent } from '../../node/index.js';
import { A2A_ERROR_NAMES } from './codes.js';
import { terminalJson } from './terminal-text.js';

/**
 * One turn event as one NDJSON line; a file's bytes in base64, data parts as JSON; errors inside
 * events become `{ kind, code, name, message, retryable }` (the agent's code and A2A's name for it when it gave one).
 */
export function eventLine(event: TurnEvent | { type: 'error'; error: unknown }): string {
  return jsonLine(event);
}

/**
 * Any value as one NDJSON line, as {@link eventLine} writes an event (bytes in base64, errors as their
 * kind and message); DEL and C1 controls escaped, as every line the command prints from an agent.
 */
export function jsonLine(value: unknown): string {
  return terminalJson(
    JSON.stringify(value, function (this: Record<string, unknown>, key, value: unknown) {
      // The holder's own value: a Buffer (what the SDK decodes) has turned itself into { type, data } by now.
      const raw = this[key];
      if (raw instanceof Uint8Array) return Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('base64');
      if (!(value instanceof Error)) return value;
      const error = value as Error & { kind?: string; retryable?: boolean; phase?: string; status?: number };
      return {
        kind: error.kind ?? 'error',
        ...agentCode(error),
        message: error.message,
        ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
        ...(error.phase === undefined ? {} : { phase: error.phase }),
        ...(error.status === undefined ? {} : { status: error.status }),
        ...whenToRetry(error),
      };
    }),
  );
}

/**
 * The last line of `send --json` when the turn has no `end`: `{"type":"error","kind","message"}`
 * (plus, as the library's error has them, the agent's `code` and A2A's `name` for it, `retryable`, `status`, the timeout's `phase`, the
 * `extensions` the agent requires, and a 429's or 503's `retryAfterMs` and `retryAt`), for an error, a timeout (kind `timeout`) or a cancel (kind
 * `aborted`); `hint` the next step when there is one (the other interfaces a card offers, what a cancel left and how to find it). `kind` and `retryable` are the library error's own, so a caller that retries on
 * `retryable` decides as a program using the library would.
 */
export function errorLine(kind: string, message: string, error?: unknown, hint?: string): string {
  const detail = error as { retryable?: boolean; status?: number; phase?: string; extensions?: readonly string[] } | undefined;
  return terminalJson(
    JSON.stringify({
      type: 'error',
      kind,
      ...agentCode(error),
      message,
      ...(detail?.retryable === undefined ? {} : { retryable: detail.retryable }),
      ...(detail?.status === undefined ? {} : { status: detail.status }),
      ...(detail?.phase === undefined ? {} : { phase: detail.phase }),
      ...(detail?.extensions === undefined ? {} : { extensions: detail.extensions }),
      ...whenToRetry(error),
      ...(hint === undefined ? {} : { hint }),
    }),
  );
}

/** The agent's own error code (JSON-RPC's) and A2A's name for it (`-32001`, `TaskNotFoundError`), as the error carries them. */
function agentCode(error: unknown): { code?: number; name?: string } {
  const { code } = (error ?? {}) as { code?: unknown };
  if (typeof code !== 'number') return {};
  const name = A2A_ERROR_NAMES[code];
  return name === undefined ? { code } : { code, name };
}

/** An agent's "not now" the turn stopped waiting for: `retryAfterMs` and `retryAt`, as the library's error has them. */
function whenToRetry(error: unknown): { retryAfterMs?: number; retryAt?: number } {
  const { retryAfterMs, retryAt } = (error ?? {}) as { retryAfterMs?: unknown; retryAt?: unknown };
  return typeof retryAfterMs === 'number' && typeof retryAt === 'number' ? { retryAfterMs, retryAt } : {};
}
