import { A2AError } from '../../../errors.js';
import { clientCertificateRefusal, networkCause } from '../../../network-cause.js';
import { clientCertificateError } from '../../http/credentials/auth-error.js';
import type { FailedCall, WireMeaning } from '../bindings/binding.js';
import { wireMeaning } from './wire-errors.js';

/*
 * The errors a failed call becomes when no A2A code said more (classifySdkError's last steps): the HTTP
 * status the port saw, a socket drop, a refusal of the credentials, anything else.
 */

/** The HTTP status the port saw, when no link of the chain said more (the SDK put it only in its message). */
export function statusSeen(status: number | undefined, call: FailedCall): A2AError | undefined {
  const meaning = wireMeaning('http', status);
  if (meaning?.kind === 'auth') return authRefusal(call, status);
  if (status === undefined || status < 400) return undefined;
  return meaning?.kind === 'unsupported' ? refused(call, status) : httpFailure(call, status, meaning);
}

/**
 * A socket drop or a connection never made: the fetch's `TypeError` (`terminated`, `fetch failed`), with
 * its cause's code; a TLS handshake the agent refused for the client certificate is an `auth` error.
 */
export function socketDrop(error: unknown, call: FailedCall): A2AError | undefined {
  if (!(error instanceof TypeError)) return undefined;
  const refusal = clientCertificateRefusal(error);
  if (refusal !== undefined) return clientCertificateError(refusal, call.what, call.base);
  const code = (error.cause as { code?: unknown } | undefined)?.code;
  const why = `${networkCause(error) ?? error.message}${typeof code === 'string' ? `, ${code}` : ''}`;
  return new A2AError({ ...call.base, kind: 'network', message: `${call.what}: the connection failed (${why})` });
}

/** Anything else (a malformed body, a thrown string): a protocol error with its text. */
export function anythingElse(error: unknown, call: FailedCall): A2AError {
  const message = error instanceof Error ? error.message : String(error);
  return new A2AError({ ...call.base, kind: 'protocol', message: `${call.what} failed: ${message}` });
}

/** A refusal of the credentials: HTTP 401/403, or the JSON-RPC codes agents send for them. Never retryable. */
export function authRefusal(call: FailedCall, status?: number, code?: number): A2AError {
  // Neither the agent's words nor the body go in, nor the SDK's error quoting them (the cause): an
  // agent could echo the credential back.
  return new A2AError({
    operation: call.base.operation,
    agent: call.base.agent,
    kind: 'auth',
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    message: `${call.what}: the agent refused the credentials (${code !== undefined ? `JSON-RPC ${code}` : `HTTP ${status}`})`,
  });
}

/** An HTTP status that says "this server does not do that": the ladder falls back (send) or polls. */
export function refused(call: FailedCall, status: number): A2AError {
  return new A2AError({ ...call.base, kind: 'unsupported', status, message: `${call.what} was refused with HTTP ${status}` });
}

/** Any other HTTP failure: retryable when its status is worth another try. */
export function httpFailure(call: FailedCall, status: number, meaning: WireMeaning | undefined): A2AError {
  return new A2AError({
    ...call.base,
    kind: 'http',
    status,
    retryable: meaning?.retryable ?? false,
    message: `${call.what} failed with HTTP ${status}`,
  });
}
