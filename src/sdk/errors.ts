import { A2AError as SdkA2AError, TaskNotFoundError, UnsupportedOperationError } from '@a2a-js/sdk/errors';
import { A2AError, naming, type A2AOperation, type AuthDetails } from '../errors.js';
import { explainAuth } from './credentials/auth-error.js';
import { METHOD_NOT_FOUND, TASK_NOT_FOUND, UNSUPPORTED_OPERATION, wireMeaning } from './wire-errors.js';

/** What the port knows about the failed call besides the thrown value. */
export interface CallContext {
  operation: A2AOperation;
  agent: string;
  /** The HTTP status of the call's response, when one arrived. */
  status?: number;
  /** What an `auth` error of this call says about the card's schemes and what was sent. */
  auth?: AuthDetails;
}

function codeOf(error: object): number | undefined {
  const code = (error as { envelopeCode?: unknown }).envelopeCode;
  return typeof code === 'number' ? code : undefined;
}

function statusOf(error: object): number | undefined {
  const status = (error as { statusCode?: unknown }).statusCode;
  return typeof status === 'number' ? status : undefined;
}

/**
 * Classifies whatever the SDK threw into an {@link A2AError} with a kind the ladder reads. The typed
 * error is looked for in `.cause` too (the SDK's v0.3 SSE path wraps it); a socket drop is a
 * `TypeError` (`terminated`, `fetch failed`); an HTTP status the SDK only put in its message is
 * taken from the response the port saw. Messages name the agent and operation, never headers.
 */
export function classifySdkError(error: unknown, context: CallContext): A2AError {
  const classified = classify(error, context);
  return classified.kind === 'auth' ? explainAuth(classified, context.auth) : classified;
}

/** A refusal of the credentials: HTTP 401/403, or the JSON-RPC codes agents send for them. Never retryable. */
function authRefusal(
  base: { operation: A2AOperation; agent: string; cause: unknown },
  what: string,
  status?: number,
  code?: number,
): A2AError {
  // Neither the agent's words nor the body go in, nor the SDK's error quoting them (the cause): an
  // agent could echo the credential back.
  return new A2AError({
    operation: base.operation,
    agent: base.agent,
    kind: 'auth',
    ...(status === undefined ? {} : { status }),
    ...(code === undefined ? {} : { code }),
    message: `${what}: the agent refused the credentials (${code !== undefined ? `JSON-RPC ${code}` : `HTTP ${status}`})`,
  });
}

const isAuthStatus = (status: number | undefined): boolean => wireMeaning('http', status)?.kind === 'auth';
const isAuthCode = (code: number | undefined): boolean => wireMeaning('json-rpc', code)?.kind === 'auth';
const isRefused = (status: number | undefined): boolean => wireMeaning('http', status)?.kind === 'unsupported';
const isTransient = (status: number | undefined): boolean => wireMeaning('http', status)?.retryable === true;

function classify(error: unknown, context: CallContext): A2AError {
  const base = { operation: context.operation, agent: context.agent, cause: error };
  const what = `${context.operation} to ${context.agent}`;
  for (let link: unknown = error, depth = 0; link instanceof Error && depth < 5; link = link.cause, depth++) {
    // Ours (a malformed event the mapping found, a bound on an answer's size, even under the SDK's
    // wrapping): it is the reason, and it gains the agent and the operation.
    if (link instanceof A2AError) return naming(link, context.agent, context.operation);
    if (link instanceof TaskNotFoundError) {
      return new A2AError({
        ...base,
        kind: 'task-not-found',
        code: TASK_NOT_FOUND,
        message: `${what}: the agent does not know the task (${link.message})`,
      });
    }
    if (link instanceof UnsupportedOperationError || codeOf(link) === METHOD_NOT_FOUND) {
      return new A2AError({
        ...base,
        kind: 'unsupported',
        code: codeOf(link) ?? UNSUPPORTED_OPERATION,
        message: `${what} is not supported by the agent (${link.message})`,
      });
    }
    if (link instanceof SdkA2AError) {
      const status = statusOf(link) ?? context.status;
      const rpcCode = codeOf(link);
      if (isAuthStatus(status) || isAuthCode(rpcCode)) {
        return authRefusal(base, what, status, isAuthCode(rpcCode) ? rpcCode : undefined);
      }
      if (status !== undefined && isRefused(status)) {
        return new A2AError({ ...base, kind: 'unsupported', status, message: `${what} was refused with HTTP ${status}` });
      }
      const code = codeOf(link);
      // The HTTP+JSON transport reports an HTTP error with no A2A reason (a proxy's 503, a bare 500)
      // as a plain SDK A2AError carrying the status: an HTTP failure, as on the JSON-RPC path.
      if (status !== undefined && status >= 400 && code === undefined && link.name === 'A2AError') {
        return new A2AError({
          ...base,
          kind: 'http',
          status,
          retryable: isTransient(status),
          message: `${what} failed with HTTP ${status}`,
        });
      }
      // A generic JSON-RPC error (not one of A2A's own) under a transient HTTP status is an overloaded
      // or restarting server, worth another try like the same status without a body.
      if (status !== undefined && isTransient(status)) {
        return new A2AError({
          ...base,
          kind: 'http',
          status,
          retryable: true,
          ...(code === undefined ? {} : { code }),
          message: `${what} failed with HTTP ${status}: ${link.message}`,
        });
      }
      return new A2AError({
        ...base,
        kind: 'protocol',
        ...(code === undefined ? {} : { code }),
        ...(status === undefined ? {} : { status }),
        message: `${what} failed: ${link.message}`,
      });
    }
  }
  const status = context.status;
  if (isAuthStatus(status)) return authRefusal(base, what, status);
  if (status !== undefined && status >= 400) {
    if (isRefused(status))
      return new A2AError({ ...base, kind: 'unsupported', status, message: `${what} was refused with HTTP ${status}` });
    return new A2AError({ ...base, kind: 'http', status, retryable: isTransient(status), message: `${what} failed with HTTP ${status}` });
  }
  if (error instanceof TypeError) {
    const code = (error.cause as { code?: unknown } | undefined)?.code;
    return new A2AError({
      ...base,
      kind: 'network',
      message: `${what}: the connection failed (${error.message}${typeof code === 'string' ? `, ${code}` : ''})`,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new A2AError({ ...base, kind: 'protocol', message: `${what} failed: ${message}` });
}
