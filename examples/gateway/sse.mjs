/**
 * Turn events as Server-Sent Events for a browser: the frame of one event, and the JSON a client
 * reads back. What the gateway knows of its side stays on its side: an error says its kind in a
 * sentence of the gateway's own (the library's message names the agent's URL: it goes to the log),
 * a note's cause is its kind, and no event carries the thread's contextId. File bytes go as base64.
 */

/** The headers of a turn's event stream (no caching, no proxy buffering). */
export const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Accel-Buffering': 'no',
};

/** What a browser is told of an error, by kind. */
const PUBLIC_ERRORS = {
  card: 'the agent is not available',
  network: 'the agent could not be reached',
  'stream-closed': "the agent's stream ended early",
  timeout: 'the agent did not answer in time',
  http: 'the agent answered with an error',
  protocol: "the agent's answer could not be read",
  unsupported: 'the agent does not support this',
  'task-not-found': 'no such task on this thread',
  'foreign-task': 'no such task on this thread',
  aborted: 'the turn was interrupted',
  config: 'the gateway is misconfigured',
  input: 'the message was refused',
  auth: 'the gateway could not sign in to the agent',
};

/**
 * One SSE frame: `event:` the type, `id:` the position when known, `data:` the event as JSON (one
 * line: JSON escapes newlines). Empty for an event a browser is not shown (`context-adopted`).
 * @param {import('../../dist/index.js').TurnEvent | import('../../dist/index.js').TurnErrorEvent} event
 * @param {string | undefined} id
 */
export function eventFrame(event, id) {
  const json = toJson(event);
  if (json === undefined) return '';
  return `event: ${event.type}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(json)}\n\n`;
}

/** An error as a browser sees it: its kind, the gateway's sentence for it, whether trying again may help. */
export function publicError(/** @type {{ kind: string; retryable?: boolean; operation?: string }} */ error) {
  return {
    kind: error.kind,
    message: PUBLIC_ERRORS[/** @type {keyof typeof PUBLIC_ERRORS} */ (error.kind)] ?? 'the turn failed',
    retryable: error.retryable === true,
    ...(error.operation ? { operation: error.operation } : {}),
  };
}

/** The event as plain JSON for a browser, or undefined when it is not shown. */
function toJson(/** @type {any} */ event) {
  switch (event.type) {
    case 'error':
      return { type: 'error', error: publicError(event.error) };
    case 'context-adopted':
      return undefined;
    case 'reconnecting':
    case 'polling':
    case 'fallback':
    case 'task-gone':
    case 'context-refused': {
      const { cause, contextId: _contextId, ...rest } = event;
      return cause === undefined ? rest : { ...rest, cause: { kind: cause.kind, retryable: cause.retryable === true } };
    }
    case 'attachment':
      return { ...event, attachment: attachmentJson(event.attachment) };
    default: {
      const { contextId: _contextId, ...rest } = event;
      return event.type === 'end' && rest.attachments ? { ...rest, attachments: rest.attachments.map(attachmentJson) } : rest;
    }
  }
}

function attachmentJson(/** @type {any} */ attachment) {
  if (attachment.kind !== 'file' || attachment.bytes === undefined) return attachment;
  const { bytes, ...rest } = attachment;
  return { ...rest, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}
