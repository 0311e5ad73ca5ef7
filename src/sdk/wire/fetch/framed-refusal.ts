import { readBody } from '../../http/body.js';
import { errorEnvelopeIn, parseJson } from '../reader/envelope.js';
import { rebuilt } from '../reader/replies.js';
import { MAX_ERROR_BODY } from '../reader/refusal.js';

/**
 * A JSON-RPC stream call refused with an SSE frame that the answer does not type as an event stream
 * (no Content-Type, or another one: Juspay's jaf 0.1.37 answers every `message/stream` so): the error
 * as the JSON body it means, which the SDK reads as the agent's refusal, with its code, as our reader
 * does. It sits in the fetch under every call of an agent, so both readers see the same answer. Any
 * other answer is handed on as it came (an SSE stream, JSON, or a body that carries no error).
 */
export async function framedRefusal(init: RequestInit | undefined, response: Response): Promise<Response> {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (type.startsWith('text/event-stream') || response.body === null || !isJsonRpcStreamCall(init)) return response;
  // A copy is read, no further than a refusal goes: the answer itself stays whole for whoever reads it.
  const text = await readBody(response.clone(), { maxBytes: MAX_ERROR_BODY });
  // JSON is read as JSON (json-as-stream.ts).
  const envelope = parseJson(text) === undefined ? errorEnvelopeIn(text) : undefined;
  if (envelope === undefined) return response;
  void response.body.cancel().catch(() => undefined);
  return rebuilt(response, JSON.stringify(envelope), 'application/json');
}

function isJsonRpcStreamCall(init: RequestInit | undefined): boolean {
  const accept = new Headers(init?.headers).get('accept')?.toLowerCase() ?? '';
  return accept.includes('text/event-stream') && typeof init?.body === 'string' && init.body.includes('"jsonrpc"');
}
