import { limitBody } from '../../http/body.js';
import { tooLarge } from '../reader/reply.js';

/**
 * A response whose body may be read whole (a unary JSON-RPC or HTTP+JSON answer, not an SSE stream)
 * errors once it passes `maxBytes`, so a hostile or broken agent cannot make the client buffer an
 * answer of any size. A `content-length` over the bound fails at once, without reading the body.
 */
export function boundedResponse(response: Response, maxBytes: number): Response {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (type.includes('text/event-stream')) return response;
  return limitBody(response, maxBytes, () => tooLarge(maxBytes));
}
