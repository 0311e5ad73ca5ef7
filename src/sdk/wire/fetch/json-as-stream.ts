import { isObject, readJsonBody, rebuilt } from '../reader/replies.js';

/**
 * A stream call answered with one JSON body instead of an event stream (servers that answer
 * SendStreamingMessage as they answer SendMessage): the same answer as a stream of one event, so
 * every reader, ours and the SDK's, reads it as the Task or Message it is. Only a successful answer
 * becomes one: a JSON-RPC envelope with a `result`, or an HTTP+JSON object without an `error`; a
 * refusal stays the refusal it is, and a call that asked for no event stream is left alone.
 */
export async function jsonAsStream(init: RequestInit | undefined, response: Response): Promise<Response> {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (!response.ok || !type.includes('json') || response.body === null || !asksForStream(init)) return response;
  const { text, json: answer } = await readJsonBody(response);
  const jsonRpc = typeof init?.body === 'string' && init.body.includes('"jsonrpc"');
  const carries = isObject(answer) && (jsonRpc ? 'result' in answer : !('error' in answer));
  if (!carries) return rebuilt(response, text);
  // One line: JSON.stringify writes no line breaks, so the event is one `data:` line whatever the body's layout.
  return rebuilt(response, `data: ${JSON.stringify(answer)}\n\n`, 'text/event-stream');
}

function asksForStream(init: RequestInit | undefined): boolean {
  return new Headers(init?.headers).get('accept')?.toLowerCase().includes('text/event-stream') === true;
}
