/**
 * Turn events as Server-Sent Events: the frame of one event, and the JSON a client reads back
 * (errors as their kind and message; file bytes as base64).
 */

/** The headers of a turn's event stream (no caching, no proxy buffering). */
export const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

/**
 * One SSE frame: `event:` the type, `id:` the position when known, `data:` the event as JSON (one
 * line: JSON escapes newlines).
 * @param {import('../../dist/index.js').TurnEvent | import('../../dist/index.js').TurnErrorEvent} event
 * @param {string | undefined} id
 */
export function eventFrame(event, id) {
  return `event: ${event.type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(toJson(event))}\n\n`;
}

/** The event as plain JSON: an error's kind, message and retryable flag; bytes as base64. */
function toJson(/** @type {any} */ event) {
  if (event.type === 'error') {
    const { kind, message, retryable, operation } = event.error;
    return { type: 'error', error: { kind, message, retryable, operation } };
  }
  if (event.type === 'attachment') return { ...event, attachment: attachmentJson(event.attachment) };
  if (event.type === 'end' && event.attachments) return { ...event, attachments: event.attachments.map(attachmentJson) };
  return event;
}

function attachmentJson(/** @type {any} */ attachment) {
  if (attachment.kind !== 'file' || attachment.bytes === undefined) return attachment;
  const { bytes, ...rest } = attachment;
  return { ...rest, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}
