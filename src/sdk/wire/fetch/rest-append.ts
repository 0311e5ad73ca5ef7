import { APPEND_MARK } from '../mapping/append-mark.js';
import { MAX_SSE_EVENT_CHARS } from '../../http/sse.js';

/*
 * The SDK's v0.3 HTTP+JSON client drops `append` from artifact-update events but keeps their
 * `metadata`: the flag is carried across in it as the append mark (`mapping/append-mark.ts`).
 */

/** HTTP+JSON streams, v0.3's (`/v1/message:stream`, `/v1/tasks/{id}:subscribe`) and any other. */
function isRestStream(url: string): boolean {
  return /:(stream|subscribe)(\?|$)/.test(url);
}

/** The response with the append mark written into its artifact-updates, for an HTTP+JSON SSE stream. */
export function markAppends(url: string, response: Response): Response {
  const type = response.headers.get('content-type')?.toLowerCase() ?? '';
  if (response.body === null || !type.startsWith('text/event-stream') || !isRestStream(url)) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = '';
  const marked = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        const end = text.lastIndexOf('\n');
        if (end === -1) {
          pending += text;
          // A line this long is no event to mark: pass it on, and the SDK's own bound judges it.
          if (pending.length > MAX_SSE_EVENT_CHARS) {
            controller.enqueue(encoder.encode(pending));
            pending = '';
          }
          return;
        }
        controller.enqueue(encoder.encode(markLines(pending + text.slice(0, end + 1))));
        pending = text.slice(end + 1);
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending !== '') controller.enqueue(encoder.encode(markLines(pending)));
      },
    }),
  );
  return new Response(marked, { status: response.status, statusText: response.statusText, headers: response.headers });
}

function markLines(text: string): string {
  if (!text.includes('"append"')) return text;
  return text.replace(/^data:(.*)$/gm, (line, payload: string) => {
    if (!payload.includes('"artifactUpdate"') || !payload.includes('"append"')) return line;
    try {
      const event = JSON.parse(payload) as { artifactUpdate?: { append?: unknown; metadata?: Record<string, unknown> } };
      const update = event.artifactUpdate;
      if (update?.append !== true) return line;
      update.metadata = { ...update.metadata, [APPEND_MARK]: true };
      return `data: ${JSON.stringify(event)}`;
    } catch {
      return line; // not ours to judge: the SDK reports a malformed event
    }
  });
}
