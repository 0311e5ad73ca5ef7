import type { A2AErrorKind } from '../errors.js';
import {
  EXTENSION_SUPPORT_REQUIRED,
  METHOD_NOT_FOUND,
  TASK_NOT_FOUND,
  UNAUTHENTICATED,
  UNAUTHORIZED,
  UNSUPPORTED_OPERATION,
} from '../port/codes.js';

/** Where a code was seen: a JSON-RPC error's `code`, or the HTTP status of the answer. A gRPC transport adds its own wire. */
export type Wire = 'json-rpc' | 'http';

/** What one code of one wire means to the ladder. */
export interface WireMeaning {
  readonly kind: Extract<A2AErrorKind, 'task-not-found' | 'unsupported' | 'auth' | 'http' | 'input'>;
  /** Whether the ladder may try again after it. */
  readonly retryable: boolean;
}

/** One row of {@link WIRE_ERRORS}. */
export interface WireError extends WireMeaning {
  readonly wire: Wire;
  readonly code: number;
  /** The name the protocol gives the code, for people reading the table. */
  readonly name: string;
}

const taskNotFound: WireMeaning = { kind: 'task-not-found', retryable: false };
const unsupported: WireMeaning = { kind: 'unsupported', retryable: false };
// Another try with the same credentials would be refused the same way.
const auth: WireMeaning = { kind: 'auth', retryable: false };
const transient: WireMeaning = { kind: 'http', retryable: true };
// The caller must activate the extension: the same call again would be refused the same way.
const extensionRequired: WireMeaning = { kind: 'input', retryable: false };

/**
 * What the codes of each wire mean, a row per code. A code that is not here means no more than its
 * class: another JSON-RPC error (A2A's TaskNotCancelable -32002 among them) is a protocol error, and
 * another HTTP status from 400 up an HTTP failure that is not worth another try. The SDK's typed errors
 * stand for their codes (a TaskNotFoundError for -32001, whichever transport threw it).
 */
export const WIRE_ERRORS: readonly WireError[] = [
  { wire: 'json-rpc', code: TASK_NOT_FOUND, name: 'TaskNotFoundError', ...taskNotFound },
  { wire: 'json-rpc', code: UNSUPPORTED_OPERATION, name: 'UnsupportedOperationError', ...unsupported },
  { wire: 'json-rpc', code: METHOD_NOT_FOUND, name: 'Method not found', ...unsupported },
  // HTTP+JSON says it with a 400 whose ErrorInfo reason is EXTENSION_SUPPORT_REQUIRED: the SDK's typed error, which stands for this code.
  { wire: 'json-rpc', code: EXTENSION_SUPPORT_REQUIRED, name: 'ExtensionSupportRequiredError', ...extensionRequired },
  { wire: 'json-rpc', code: UNAUTHENTICATED, name: 'Unauthenticated', ...auth },
  { wire: 'json-rpc', code: UNAUTHORIZED, name: 'Unauthorized', ...auth },
  { wire: 'http', code: 401, name: 'Unauthorized', ...auth },
  { wire: 'http', code: 403, name: 'Forbidden', ...auth },
  // "This server does not do that": the ladder falls back (send) or polls.
  { wire: 'http', code: 404, name: 'Not Found', ...unsupported },
  { wire: 'http', code: 405, name: 'Method Not Allowed', ...unsupported },
  { wire: 'http', code: 501, name: 'Not Implemented', ...unsupported },
  // An overloaded, restarting or slow server, or a proxy in front of one: worth another try.
  { wire: 'http', code: 408, name: 'Request Timeout', ...transient },
  { wire: 'http', code: 429, name: 'Too Many Requests', ...transient },
  { wire: 'http', code: 500, name: 'Internal Server Error', ...transient },
  { wire: 'http', code: 502, name: 'Bad Gateway', ...transient },
  { wire: 'http', code: 503, name: 'Service Unavailable', ...transient },
  { wire: 'http', code: 504, name: 'Gateway Timeout', ...transient },
];

/** The table by wire and code, built once: a lookup is one map read. */
const BY_WIRE: Readonly<Record<Wire, ReadonlyMap<number, WireMeaning>>> = {
  'json-rpc': byCode('json-rpc'),
  http: byCode('http'),
};

function byCode(wire: Wire): ReadonlyMap<number, WireMeaning> {
  return new Map(WIRE_ERRORS.filter((row) => row.wire === wire).map((row) => [row.code, row]));
}

/** What `code` means on `wire`: its row of {@link WIRE_ERRORS}, or undefined for a code with none (or no code). */
export function wireMeaning(wire: Wire, code: number | undefined): WireMeaning | undefined {
  return code === undefined ? undefined : BY_WIRE[wire].get(code);
}
