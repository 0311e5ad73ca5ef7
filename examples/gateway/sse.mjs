/**
 * Turn events as Server-Sent Events for a browser: the frame of one event, and the JSON a client
 * reads back. What the gateway knows of its side stays on its side: an error says its kind in a
 * sentence of the gateway's own (the library's message names the agent's URL: it goes to the log),
 * a note's cause is its kind, and no event carries the thread's contextId. File bytes go as base64. An
 * interrupted `end` carries its question as the client answers it (`interrupt`: kind, task, text, the
 * requests for input by id and state, the generation).
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
  conflict: 'the question was answered already (or its task moved on): this answer was not taken',
};

/** What ends an SSE line (CR, LF) or makes a browser drop an `id:` (NUL): never inside a field's value. */
const BREAKS = /[\r\n\u0000]/;

/** Whether `value` can be one SSE field's value as it is: no CR, LF or NUL, so it cannot start another field. */
export function isFieldValue(/** @type {string} */ value) {
  return !BREAKS.test(value);
}

/**
 * One SSE field line. A value holding CR, LF or NUL is refused (a `TypeError`, naming the field, not
 * the value): written as it is, it would end the line and start fields of its own (a forged `event:
 * end`, a day-long `retry:`).
 * @param {'event' | 'id' | 'data' | 'retry'} name
 * @param {string} value
 */
export function field(name, value) {
  if (!isFieldValue(value)) throw new TypeError(`an SSE ${name} field cannot hold a line break or NUL`);
  return `${name}: ${value}\n`;
}

/** An SSE comment line (`: text`): CR, LF and NUL in `text` become spaces, so a comment stays one line. */
export function comment(/** @type {string} */ text) {
  return `: ${text.replace(/[\r\n\u0000]/g, ' ')}\n`;
}

/**
 * One SSE frame: `event:` the type, `id:` the position when known, `data:` the event as JSON on one
 * line (JSON escapes every control character, so no text of the agent's can end it). Empty for an
 * event a browser is not shown (`context-adopted`). A type or id holding CR, LF or NUL is refused
 * ({@link field}): the caller writes only ids it checked (`stream.mjs`).
 * @param {import('../../dist/index.js').TurnEvent | import('../../dist/index.js').TurnErrorEvent} event
 * @param {string | undefined} id
 */
export function eventFrame(event, id) {
  const json = toJson(event);
  if (json === undefined) return '';
  return `${field('event', event.type)}${id === undefined ? '' : field('id', id)}${field('data', JSON.stringify(json))}\n`;
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
    case 'end': {
      const { contextId: _contextId, interrupt, ...rest } = event;
      return {
        ...rest,
        ...(rest.attachments ? { attachments: rest.attachments.map(attachmentJson) } : {}),
        ...(interrupt ? { interrupt: interruptJson(interrupt) } : {}),
      };
    }
    default: {
      const { contextId: _contextId, ...rest } = event;
      return rest;
    }
  }
}

/**
 * An interrupted end's question as a client answers it: what it asks (`kind`, `text`), the task an answer
 * names (`taskId`), the agent's requests for input by id and state (A2A 1.1 draft; their metadata stays
 * here) and the generation an answer names (`ifGenerationMatch`). Not the contextId, not the agent's
 * whole message (its text is `text`).
 * @param {import('../../dist/index.js').Interrupt} interrupt
 */
function interruptJson(interrupt) {
  const { kind, taskId, text, elicitations, generation } = interrupt;
  return {
    kind,
    taskId,
    text,
    ...(elicitations ? { elicitations: elicitations.map(({ id, state }) => ({ id, state })) } : {}),
    ...(generation === undefined ? {} : { generation }),
  };
}

function attachmentJson(/** @type {any} */ attachment) {
  if (attachment.kind !== 'file' || attachment.bytes === undefined) return attachment;
  const { bytes, ...rest } = attachment;
  return { ...rest, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}
