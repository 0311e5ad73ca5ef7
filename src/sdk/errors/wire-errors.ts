import type { A2AErrorKind } from '../../errors.js';
import {
  EXTENSION_SUPPORT_REQUIRED,
  METHOD_NOT_FOUND,
  TASK_NOT_FOUND,
  UNAUTHENTICATED,
  UNAUTHORIZED,
  UNSUPPORTED_OPERATION,
} from '../../port/codes.js';

/** Where a code was seen: a JSON-RPC error's `code`, the HTTP status of the answer, or the status a gRPC call ended with. */
export type Wire = 'json-rpc' | 'http' | 'grpc';

/** What one code of one wire means to the ladder. */
export interface WireMeaning {
  readonly kind: Extract<A2AErrorKind, 'task-not-found' | 'unsupported' | 'auth' | 'http' | 'input' | 'network' | 'timeout'>;
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
// A call that broke on its way (a dropped connection, a reset stream, a server going away): resubscribe.
const broken: WireMeaning = { kind: 'network', retryable: true };

/**
 * What the codes of each wire mean, a row per code. A code that is not here means no more than its
 * class: another JSON-RPC error (A2A's TaskNotCancelable -32002 among them) is a protocol error,
 * another HTTP status from 400 up an HTTP failure that is not worth another try, and another gRPC
 * status (UNKNOWN, INVALID_ARGUMENT, RESOURCE_EXHAUSTED, …) a protocol error. The SDK's typed errors
 * stand for their codes (a TaskNotFoundError for -32001, HTTP 404 or gRPC NOT_FOUND with its
 * ErrorInfo, whichever transport threw it); the gRPC rows read a status that came without one.
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
  // The request's headers (credentials, extensions, trace context) or its URL are more than the server takes: the same request
  // would be refused the same way. The credentialed fetch says which of them is large (headers-too-large.ts).
  { wire: 'http', code: 431, name: 'Request Header Fields Too Large', kind: 'http', retryable: false },
  // An overloaded, restarting or slow server, or a proxy in front of one: worth another try.
  { wire: 'http', code: 408, name: 'Request Timeout', ...transient },
  { wire: 'http', code: 429, name: 'Too Many Requests', ...transient },
  { wire: 'http', code: 500, name: 'Internal Server Error', ...transient },
  { wire: 'http', code: 502, name: 'Bad Gateway', ...transient },
  { wire: 'http', code: 503, name: 'Service Unavailable', ...transient },
  { wire: 'http', code: 504, name: 'Gateway Timeout', ...transient },
  // gRPC (A2A §10): a status the SDK could not read an A2A error from.
  { wire: 'grpc', code: 1, name: 'CANCELLED', ...broken },
  { wire: 'grpc', code: 4, name: 'DEADLINE_EXCEEDED', kind: 'timeout', retryable: true },
  { wire: 'grpc', code: 5, name: 'NOT_FOUND', ...taskNotFound },
  { wire: 'grpc', code: 7, name: 'PERMISSION_DENIED', ...auth },
  // A2A's UnsupportedOperation and VersionNotSupported, and a finished task's resubscribe, without their ErrorInfo.
  { wire: 'grpc', code: 9, name: 'FAILED_PRECONDITION', ...unsupported },
  { wire: 'grpc', code: 12, name: 'UNIMPLEMENTED', ...unsupported },
  // @grpc/grpc-js reports a reset stream (RST_STREAM) as INTERNAL.
  { wire: 'grpc', code: 13, name: 'INTERNAL', ...broken },
  { wire: 'grpc', code: 14, name: 'UNAVAILABLE', ...broken },
  { wire: 'grpc', code: 16, name: 'UNAUTHENTICATED', ...auth },
];

/** The table by wire and code, built once: a lookup is one map read. */
const BY_WIRE: Readonly<Record<Wire, ReadonlyMap<number, WireMeaning>>> = {
  'json-rpc': byCode('json-rpc'),
  http: byCode('http'),
  grpc: byCode('grpc'),
};

/** A gRPC status code's name (`UNAVAILABLE`), or its number for a code gRPC does not define. */
export function grpcStatusName(code: number): string {
  return GRPC_NAMES[code] ?? String(code);
}

const GRPC_NAMES: readonly string[] = [
  'OK',
  'CANCELLED',
  'UNKNOWN',
  'INVALID_ARGUMENT',
  'DEADLINE_EXCEEDED',
  'NOT_FOUND',
  'ALREADY_EXISTS',
  'PERMISSION_DENIED',
  'RESOURCE_EXHAUSTED',
  'FAILED_PRECONDITION',
  'ABORTED',
  'OUT_OF_RANGE',
  'UNIMPLEMENTED',
  'INTERNAL',
  'UNAVAILABLE',
  'DATA_LOSS',
  'UNAUTHENTICATED',
];

function byCode(wire: Wire): ReadonlyMap<number, WireMeaning> {
  return new Map(WIRE_ERRORS.filter((row) => row.wire === wire).map((row) => [row.code, row]));
}

/** What `code` means on `wire`: its row of {@link WIRE_ERRORS}, or undefined for a code with none (or no code). */
export function wireMeaning(wire: Wire, code: number | undefined): WireMeaning | undefined {
  return code === undefined ? undefined : BY_WIRE[wire].get(code);
}
