import { tooLarge } from '../reader/reply.js';

/**
 * A response whose body may be read whole (a unary JSON-RPC or HTTP+JSON answer, not an SSE stream)
 * errors once it passes `maxBytes`, so a hostile or broken agent cannot make the client buffer an
 * answer of any size. A `content-length` over the bound fails at once, without reading the body.
 */
export function boundedResponse(response: Response, maxBytes: number): Response {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (response.body === null || type.includes('text/event-stream')) return response;
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    void response.body.cancel().catch(() => undefined);
    throw tooLarge(maxBytes);
  }
  let seen = 0;
  const counted = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(tooLarge(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
  return new Response(counted, { status: response.status, statusText: response.statusText, headers: response.headers });
}
