import { isOwnAnswer } from './envelope.js';
import { withKinds } from './results.js';
import { statusStringsIn } from '../mapping/status-text.js';

type Json = Record<string, unknown>;

export const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON-RPC reply (SendMessage, GetTask, CancelTask, and v0.3's `message/send`, `tasks/get`,
 * `tasks/cancel`), made readable for the SDK where real servers bend the wire: an id the call's own
 * answer may carry by {@link isOwnAnswer} (`"1"` for `1`, `null`) becomes the request's, a v0.3
 * result without `kind` (v0.2-era servers) gets the kinds its shape tells, and a task's status
 * message given as a plain string becomes a message with that text (`mapping/status-text.ts`). A
 * truly different id, or anything that is no JSON-RPC reply, is left for the SDK to refuse. Streams
 * are not touched here (our reader reads those; the SDK's is handed them mended: `fetch/stream-frames.ts`).
 */
export async function tolerantReply(init: RequestInit | undefined, response: Response): Promise<Response> {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (!type.includes('json') || response.body === null) return response;
  const request = rpcRequest(init?.body);
  if (request === undefined) return response;
  const { text, json: envelope } = await readJsonBody(response);
  if (!isObject(envelope)) return rebuilt(response, text);
  let changed = false;
  const id = envelope['id'];
  if (id !== request.id && isOwnAnswer(id, request.id)) {
    envelope['id'] = request.id;
    changed = true;
  }
  const result = envelope['result'];
  if (request.method.includes('/') && isObject(result) && typeof result['kind'] !== 'string') {
    changed = withKinds(result) !== undefined || changed;
  }
  if (isObject(result)) changed = statusStringsIn(result) || changed;
  return rebuilt(response, changed ? JSON.stringify(envelope) : text);
}

/** A JSON-RPC request's id and method, from the body it was sent with (undefined for any other body). */
export function rpcRequest(body: unknown): { id: unknown; method: string } | undefined {
  if (typeof body !== 'string' || !body.includes('"jsonrpc"')) return undefined;
  try {
    const json: unknown = JSON.parse(body);
    return isObject(json) && typeof json['method'] === 'string' ? { id: json['id'], method: json['method'] } : undefined;
  } catch {
    return undefined;
  }
}

/** A body read whole: its text, and its JSON when the text is JSON (undefined when it is not). */
export async function readJsonBody(response: Response): Promise<{ text: string; json: unknown }> {
  const text = await response.text();
  try {
    return { text, json: JSON.parse(text) as unknown };
  } catch {
    return { text, json: undefined };
  }
}

/** The same answer with `body` (its length may have changed), and `type` as its Content-Type when given. */
export function rebuilt(response: Response, body: string, type?: string): Response {
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  if (type !== undefined) headers.set('content-type', type);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}
