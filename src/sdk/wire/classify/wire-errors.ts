import {
  EXTENSION_SUPPORT_REQUIRED,
  METHOD_NOT_FOUND,
  TASK_GENERATION_MISMATCH,
  TASK_NOT_FOUND,
  UNAUTHENTICATED,
  UNAUTHORIZED,
  UNSUPPORTED_OPERATION,
} from '../../../port/codes.js';
import type { Wire, WireError, WireMeaning } from '../bindings/binding.js';
import { MEANINGS } from '../bindings/meanings.js';
import { BINDINGS } from '../bindings/registry.js';

const { taskNotFound, unsupported, auth, transient, extensionRequired, conflict } = MEANINGS;

/** Every binding's rows: A2A's error codes (the SDK's typed errors stand for them on every binding) and the HTTP statuses. */
const EVERY_BINDING: readonly WireError[] = [
  { wire: 'json-rpc', code: TASK_NOT_FOUND, name: 'TaskNotFoundError', ...taskNotFound },
  { wire: 'json-rpc', code: UNSUPPORTED_OPERATION, name: 'UnsupportedOperationError', ...unsupported },
  { wire: 'json-rpc', code: METHOD_NOT_FOUND, name: 'Method not found', ...unsupported },
  // HTTP+JSON says it with a 400 whose ErrorInfo reason is EXTENSION_SUPPORT_REQUIRED: the SDK's typed error, which stands for this code.
  { wire: 'json-rpc', code: EXTENSION_SUPPORT_REQUIRED, name: 'ExtensionSupportRequiredError', ...extensionRequired },
  // A2A 1.1 (draft): an answer that names a generation the task has moved past (another answer came first).
  { wire: 'json-rpc', code: TASK_GENERATION_MISMATCH, name: 'TaskGenerationMismatchError', ...conflict },
  { wire: 'json-rpc', code: UNAUTHENTICATED, name: 'Unauthenticated', ...auth },
  { wire: 'json-rpc', code: UNAUTHORIZED, name: 'Unauthorized', ...auth },
  { wire: 'http', code: 401, name: 'Unauthorized', ...auth },
  { wire: 'http', code: 403, name: 'Forbidden', ...auth },
  // "This server does not do that": the ladder falls back (send) or polls.
  { wire: 'http', code: 404, name: 'Not Found', ...unsupported },
  { wire: 'http', code: 405, name: 'Method Not Allowed', ...unsupported },
  { wire: 'http', code: 501, name: 'Not Implemented', ...unsupported },
  // The request's headers (credentials, extensions, trace context) or its URL are more than the server takes: the same request
  // would be refused the same way. The credentialed fetch says which of them is large (fetch/headers-too-large.ts).
  { wire: 'http', code: 431, name: 'Request Header Fields Too Large', kind: 'http', retryable: false },
  // An overloaded, restarting or slow server, or a proxy in front of one: worth another try.
  { wire: 'http', code: 408, name: 'Request Timeout', ...transient },
  { wire: 'http', code: 429, name: 'Too Many Requests', ...transient },
  { wire: 'http', code: 500, name: 'Internal Server Error', ...transient },
  { wire: 'http', code: 502, name: 'Bad Gateway', ...transient },
  { wire: 'http', code: 503, name: 'Service Unavailable', ...transient },
  { wire: 'http', code: 504, name: 'Gateway Timeout', ...transient },
];

/**
 * What the codes of each wire mean, a row per code: every binding's, then each binding's own (gRPC's
 * statuses). A code that is not here means no more than its class: another JSON-RPC error (A2A's
 * TaskNotCancelable -32002 among them) is a protocol error, another HTTP status from 400 up an HTTP
 * failure that is not worth another try, and another gRPC status (UNKNOWN, INVALID_ARGUMENT,
 * RESOURCE_EXHAUSTED, …) a protocol error. The SDK's typed errors stand for their codes (a
 * TaskNotFoundError for -32001, HTTP 404 or gRPC NOT_FOUND with its ErrorInfo, whichever transport
 * threw it); a binding's own rows read a status that came without one.
 */
export const WIRE_ERRORS: readonly WireError[] = [...EVERY_BINDING, ...BINDINGS.flatMap((binding) => binding.errors)];

/** The table by wire and code, built once: a lookup is two map reads. */
const BY_WIRE: ReadonlyMap<Wire, ReadonlyMap<number, WireMeaning>> = byWire(WIRE_ERRORS);

function byWire(rows: readonly WireError[]): Map<Wire, Map<number, WireMeaning>> {
  const table = new Map<Wire, Map<number, WireMeaning>>();
  for (const row of rows) {
    const codes = table.get(row.wire) ?? new Map<number, WireMeaning>();
    table.set(row.wire, codes.set(row.code, row));
  }
  return table;
}

/** What `code` means on `wire`: its row of {@link WIRE_ERRORS}, or undefined for a code with none (or no code). */
export function wireMeaning(wire: Wire, code: number | undefined): WireMeaning | undefined {
  return code === undefined ? undefined : BY_WIRE.get(wire)?.get(code);
}
