import { A2AError } from '../../errors.js';
import { extensionRefusal } from '../extension-refusal.js';
import { wireMeaning } from '../wire-errors.js';

/** The JSON in `text`, or undefined when it is none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** True for a JSON-RPC error envelope: one whose `error` is an object. */
export function isError(envelope: unknown): envelope is { error: { code?: unknown; message?: unknown; data?: unknown } } {
  const error = (envelope as { error?: unknown }).error;
  return typeof error === 'object' && error !== null;
}

/** A JSON-RPC error as the ladder reads it: by its code's row in the wire table, as the SDK's errors are (`errors.ts`). */
export function rpcError(error: { code?: unknown; message?: unknown; data?: unknown }): A2AError {
  const code = typeof error.code === 'number' ? error.code : undefined;
  const said = typeof error.message === 'string' ? error.message : 'no message';
  const meaning = wireMeaning('json-rpc', code);
  switch (meaning?.kind) {
    case 'task-not-found':
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the agent does not know the task (${said})`,
      });
    case 'auth':
      // The agent's own words are left out: an agent could echo the credential back.
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the agent refused the credentials (JSON-RPC ${code})`,
      });
    case 'unsupported':
      return new A2AError({ kind: meaning.kind, retryable: meaning.retryable, code, message: `not supported by the agent (${said})` });
    case 'input': {
      const refusal = extensionRefusal(said, error.data);
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        ...(refusal.extensions ? { extensions: refusal.extensions } : {}),
        message: refusal.message,
      });
    }
    default:
      return new A2AError({
        kind: 'protocol',
        ...(code === undefined ? {} : { code }),
        message: `the agent answered with an error: ${said}`,
      });
  }
}
