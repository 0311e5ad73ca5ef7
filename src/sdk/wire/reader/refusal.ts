import { A2AError } from '../../../errors.js';
import { wireMeaning } from '../classify/wire-errors.js';
import { readBody } from '../../http/body.js';
import { retryAfterOf } from '../../http/retry-after.js';
import { isError, parseJson, rpcError } from './envelope.js';

/** Why a stream was refused, and the HTTP status to classify it under (none for a wrong Content-Type). */
export interface Refusal {
  error: Error;
  status?: number;
  /** A 429's or 503's `Retry-After`, in milliseconds from the answer. */
  retryAfterMs?: number;
}

/** The answer's Content-Type, lower-cased (media types are case-insensitive), or empty. */
export function contentType(response: Response): string {
  return response.headers.get('content-type')?.toLowerCase() ?? '';
}

/** The body of an answer that is an event stream: a success with an SSE Content-Type and a body; null for any other. */
export function eventStream(response: Response): ReadableStream<Uint8Array> | null {
  return response.ok && contentType(response).startsWith('text/event-stream') ? response.body : null;
}

/**
 * Why an answer that is no event stream was refused. A2A's own refusals (a JSON-RPC error whose code
 * has a meaning) are read as such, and so is any error in a successful answer; any other failure by
 * its HTTP status, as on the SDK's path; a success that is not SSE by its Content-Type.
 */
export async function refusal(response: Response): Promise<Refusal> {
  const retryAfterMs = retryAfterOf(response);
  return retryAfterMs === undefined ? refusalOf(response) : { ...(await refusalOf(response)), retryAfterMs };
}

async function refusalOf(response: Response): Promise<Refusal> {
  const envelope = parseJson(await readBody(response, { maxBytes: MAX_ERROR_BODY }));
  const error = envelope !== undefined && envelope !== null && isError(envelope) ? rpcError(envelope.error) : undefined;
  if (error !== undefined && (error.kind !== 'protocol' || response.ok)) return { error, status: response.status };
  if (!response.ok) return { error: httpError(response.status, error), status: response.status };
  const type = contentType(response);
  return { error: new A2AError({ kind: 'protocol', message: `the stream's Content-Type is ${type || 'missing'}, not text/event-stream` }) };
}

/** The most of a refused answer's body that is read: enough for any JSON-RPC error. */
export const MAX_ERROR_BODY = 64 * 1024;

/**
 * A refused answer as the SDK's path reads it: by its HTTP status (404/405/501 unsupported, 408/429/5xx
 * retryable), keeping a generic JSON-RPC error's code; under any other status, a protocol error with both.
 */
function httpError(status: number, error: A2AError | undefined): Error {
  const meaning = wireMeaning('http', status);
  // With no error of the agent's, or a status that refuses, the classifier reads the status alone.
  if (error === undefined || meaning?.kind === 'unsupported') return new Error(`HTTP ${status}${error ? `: ${error.message}` : ''}`);
  const transient = meaning?.retryable === true;
  return new A2AError({
    kind: transient ? 'http' : 'protocol',
    retryable: transient,
    status,
    ...(error.code === undefined ? {} : { code: error.code }),
    message: `failed with HTTP ${status}: ${error.message}`,
  });
}
