import { A2AError } from '../../../errors.js';
import { extensionRefusal } from '../../http/extensions/refusal.js';
import { wireMeaning } from '../classify/wire-errors.js';
import { namedInData, typedError } from '../classify/error-names.js';
import { SseLines } from '../../http/sse-lines.js';

/** The JSON in `text`, or undefined when it is none. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Whether a unary answer's `id` makes it the answer of the call numbered `id`: read on the call's own
 * HTTP response, so an answer that says no other call is this call's.
 *
 * - the request's id, or the same id as another JSON type (`"1"` for `1`): accepted;
 * - `null`: accepted, a result or an error alike. JSON-RPC 2.0 §5 gives `null` to an error whose
 *   request's id could not be read; `@reactive-agents/a2a` 0.9.0 sends it with every result;
 * - absent, or any other id: refused, as another call's answer (nothing says it is this call's).
 */
export function isOwnAnswer(echoed: unknown, id: unknown): boolean {
  if (echoed === null || echoed === id) return true;
  if (echoed === undefined || id === undefined || id === null) return false;
  return String(echoed) === String(id);
}

/** True for a JSON-RPC error envelope: one whose `error` is an object. */
export function isError(envelope: unknown): envelope is ErrorEnvelope {
  const error = (envelope as { error?: unknown }).error;
  return typeof error === 'object' && error !== null;
}

/** A JSON-RPC error envelope: what {@link isError} admits. */
export type ErrorEnvelope = { error: { code?: unknown; message?: unknown; data?: unknown } };

/**
 * The JSON-RPC error a refused answer's body carries: the body as JSON, or else the data of its first
 * SSE event — a server that frames its refusal as an event but does not say `text/event-stream`
 * (Juspay's jaf 0.1.37 answers every `message/stream` so). Undefined for a body that carries none.
 */
export function errorEnvelopeIn(body: string): ErrorEnvelope | undefined {
  const envelope = parseJson(body) ?? parseJson(firstSseData(body) ?? '');
  return typeof envelope === 'object' && envelope !== null && isError(envelope) ? envelope : undefined;
}

/** The data of the first event of `body` read by the SSE rules (a U+001E before it dropped), if it has one. */
function firstSseData(body: string): string | undefined {
  let first: string | undefined;
  const lines = new SseLines({ event: (data) => (first ??= data), comment: () => undefined, tooLarge: () => undefined }, body.length + 1);
  lines.feed(body);
  lines.end();
  return first?.charCodeAt(0) === 0x1e ? first.slice(1) : first;
}

/**
 * A JSON-RPC error as the ladder reads it: by its code's row in the wire table, as the SDK's errors are
 * (`classify/sdk-errors.ts`); a generic server error whose data names an A2A error by that error's code
 * (`classify/error-names.ts`), keeping the agent's code, with the name before its words and the SDK's
 * typed error of that name as the cause.
 */
export function rpcError(error: { code?: unknown; message?: unknown; data?: unknown }): A2AError {
  const code = typeof error.code === 'number' ? error.code : undefined;
  const named = namedInData(code, error.data);
  const cause = named && typedError(named, error);
  const said = cause?.message ?? (typeof error.message === 'string' ? error.message : 'no message');
  const meaning = wireMeaning('json-rpc', named?.code ?? code);
  const because = cause === undefined ? {} : { cause };
  switch (meaning?.kind) {
    case 'task-not-found':
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the agent does not know the task (${said})`,
        ...because,
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
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `not supported by the agent (${said})`,
        ...because,
      });
    case 'input': {
      const refusal = extensionRefusal(said, error.data);
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        ...(refusal.extensions ? { extensions: refusal.extensions } : {}),
        message: refusal.message,
        ...because,
      });
    }
    case 'conflict':
      return new A2AError({
        kind: meaning.kind,
        retryable: meaning.retryable,
        code,
        message: `the task moved on since the generation the message named: another answer reached it first (${said})`,
        ...because,
      });
    default:
      return new A2AError({
        kind: 'protocol',
        ...(code === undefined ? {} : { code }),
        message: `the agent answered with an error: ${said}`,
        ...because,
      });
  }
}
