import { A2AError } from '../../../../errors.js';
import { clientCertificateRefusalIn } from '../../../../network-cause.js';
import { clientCertificateError } from '../../../http/credentials/auth-error.js';
import type { FailedCall, WireError, WireMeaning } from '../binding.js';
import { MEANINGS } from '../meanings.js';

const { taskNotFound, unsupported, auth, broken } = MEANINGS;

/** gRPC's status for a method the server does not have: each generation's service has its own name, so the other generation's calls meet it. */
export const UNIMPLEMENTED = 12;

/** gRPC's status for a channel that could not connect (and a connection that broke). */
const UNAVAILABLE = 14;

/** gRPC's rows of the wire table (A2A §10): a status the SDK could not read an A2A error from. */
export const GRPC_ERRORS: readonly WireError[] = [
  { wire: 'grpc', code: 1, name: 'CANCELLED', ...broken },
  { wire: 'grpc', code: 4, name: 'DEADLINE_EXCEEDED', kind: 'timeout', retryable: true },
  { wire: 'grpc', code: 5, name: 'NOT_FOUND', ...taskNotFound },
  { wire: 'grpc', code: 7, name: 'PERMISSION_DENIED', ...auth },
  // A2A's UnsupportedOperation and VersionNotSupported, and a finished task's resubscribe, without their ErrorInfo.
  { wire: 'grpc', code: 9, name: 'FAILED_PRECONDITION', ...unsupported },
  { wire: 'grpc', code: UNIMPLEMENTED, name: 'UNIMPLEMENTED', ...unsupported },
  // @grpc/grpc-js reports a reset stream (RST_STREAM) as INTERNAL.
  { wire: 'grpc', code: 13, name: 'INTERNAL', ...broken },
  { wire: 'grpc', code: UNAVAILABLE, name: 'UNAVAILABLE', ...broken },
  { wire: 'grpc', code: 16, name: 'UNAUTHENTICATED', ...auth },
];

const BY_CODE: ReadonlyMap<number, WireMeaning> = new Map(GRPC_ERRORS.map((row) => [row.code, row]));

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

/** A gRPC status code's name (`UNAVAILABLE`), or its number for a code gRPC does not define. */
export function grpcStatusName(code: number): string {
  return GRPC_NAMES[code] ?? String(code);
}

/** RESOURCE_EXHAUSTED and UNAVAILABLE: a server that says when to come back (a `retry-after` in the status's metadata) did not take the call. */
const GRPC_NOT_NOW: ReadonlySet<number> = new Set([8, 14]);

/**
 * The `retry-after` of the status's trailing metadata (whole seconds, as HTTP's), in milliseconds,
 * which the SDK keeps on its error's cause; undefined without one.
 */
function retryAfterIn(cause: unknown): number | undefined {
  const metadata = (cause as { metadata?: { get?: (key: string) => unknown[] } } | undefined)?.metadata;
  const value = typeof metadata?.get === 'function' ? metadata.get('retry-after')[0] : undefined;
  return typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Math.min(MAX_TIMER_MS, Number(value) * 1000) : undefined;
}

/** The longest delay a JavaScript timer takes. */
const MAX_TIMER_MS = 2_147_483_647;

/**
 * An SDK error of its gRPC transport, by the status the call ended with: a status without an A2A
 * reason through gRPC's rows (UNAVAILABLE a retryable break, NOT_FOUND a task the agent does not
 * know, UNAUTHENTICATED an `auth` error, …), one with a reason the ladder has no rung for
 * (InvalidAgentResponse, VersionNotSupported, …) a protocol error.
 */
export function classifyGrpcStatus(link: Error, call: FailedCall): A2AError | undefined {
  const { transport, status } = link as { transport?: unknown; status?: unknown };
  if (transport !== 'grpc' || typeof status !== 'number') return undefined;
  const said = `gRPC ${grpcStatusName(status)}`;
  // A channel that could not connect because the agent refused the TLS handshake for the client certificate.
  const refusal = status === UNAVAILABLE ? clientCertificateRefusalIn(link.message) : undefined;
  if (refusal !== undefined) return clientCertificateError(refusal, call.what, { ...call.base });
  // A reason the SDK read from the status's ErrorInfo (its typed errors carry their own name).
  const meaning = link.name === 'A2AError' ? BY_CODE.get(status) : undefined;
  if (meaning?.kind === 'auth') {
    // As for HTTP: neither the agent's words nor the SDK's error quoting them go in.
    return new A2AError({
      operation: call.base.operation,
      agent: call.base.agent,
      kind: 'auth',
      grpcCode: status,
      message: `${call.what}: the agent refused the credentials (${said})`,
    });
  }
  const retryAfterMs = GRPC_NOT_NOW.has(status) ? retryAfterIn(link.cause) : undefined;
  const base = { ...call.base, grpcCode: status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) };
  if (meaning === undefined)
    return new A2AError({ ...base, kind: 'protocol', message: `${call.what} failed with ${said}: ${link.message}` });
  const what =
    meaning.kind === 'task-not-found'
      ? `${call.what}: the agent does not know the task (${said}: ${link.message})`
      : meaning.kind === 'unsupported'
        ? `${call.what} is not supported by the agent (${said}: ${link.message})`
        : `${call.what} failed with ${said}: ${link.message}`;
  return new A2AError({ ...base, kind: meaning.kind, retryable: meaning.retryable, message: what });
}
