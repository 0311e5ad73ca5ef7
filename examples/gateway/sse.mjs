/**
 * Turn events as Server-Sent Events for a browser: the frame of one event, and the JSON a client
 * reads back. What the gateway knows of its side stays on its side: an error says its kind in a
 * sentence of the gateway's own (the library's message names the agent's URL: it goes to the log),
 * a note's cause is its kind, and no event carries the thread's contextId. File bytes go as base64. An
 * interrupted `end` carries its question as the client answers it (`interrupt`: kind, task, text, the
 * requests for input by id and state, the generation).
 *
 * A2UI: a `surface` frame carries the messages as the library gave them after its checks (`surfaceId`, and
 * each message's `kind`, `surfaceId`, `version` and the agent's `message`), and so does each of the `end`'s
 * `surfaces`; a `surface-refused` frame carries the reason and a sentence of the gateway's own by reason
 * (never the library's, which may quote what was refused), and the surface's id only when it cannot be
 * taken for a URL.
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

/** What a browser is told of a refused A2UI message, by reason. */
const PUBLIC_REFUSALS = {
  'unsafe-url': 'a part of the interface carried a link a browser would run',
  'too-deep': 'a part of the interface was nested too deep',
  'too-large': 'a part of the interface was too large',
  'too-many-surfaces': 'the agent drew more interfaces than a turn shows',
  'too-many-components': 'an interface had more components than a turn shows',
  malformed: 'a part of the interface could not be read',
};

/** A scheme and its colon at the start (`javascript:`, `https:`): an id that reads as a URL is not sent back in a refusal. */
const URL_LIKE = /^\s*[a-z][a-z\d+.-]*:/i;

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
    case 'surface':
      return { type: 'surface', ...surfaceJson(event) };
    case 'surface-refused':
      return refusalJson(event);
    case 'end': {
      const { contextId: _contextId, interrupt, surfaces, ...rest } = event;
      return {
        ...rest,
        ...(rest.attachments ? { attachments: rest.attachments.map(attachmentJson) } : {}),
        ...(interrupt ? { interrupt: interruptJson(interrupt) } : {}),
        ...(surfaces ? { surfaces: surfaces.map(surfaceJson) } : {}),
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

/**
 * A surface (a `surface` event's, or one of the `end`'s `surfaces`) as a renderer takes it: its id and its
 * messages, each its kind, surface, version and the agent's message as the library's checks passed it.
 * Named field by field: nothing else the library may add to an event reaches a browser unseen.
 * @param {{ surfaceId: string; messages: readonly import('../../dist/index.js').A2UIMessage[] }} surface
 */
function surfaceJson({ surfaceId, messages }) {
  return {
    surfaceId,
    messages: messages.map(({ kind, surfaceId: about, version, message }) => ({
      kind,
      ...(about === undefined ? {} : { surfaceId: about }),
      ...(version === undefined ? {} : { version }),
      message,
    })),
  };
}

/**
 * A refused A2UI message as a browser is told of it: the reason, the gateway's sentence for it (the
 * library's may quote a key of the refused message), and the surface's id unless it reads as a URL.
 * @param {{ reason: string; surfaceId?: string }} refusal
 */
function refusalJson({ reason, surfaceId }) {
  const known = Object.hasOwn(PUBLIC_REFUSALS, reason);
  return {
    type: 'surface-refused',
    reason: known ? reason : 'malformed',
    message: PUBLIC_REFUSALS[/** @type {keyof typeof PUBLIC_REFUSALS} */ (known ? reason : 'malformed')],
    ...(surfaceId === undefined || URL_LIKE.test(surfaceId) ? {} : { surfaceId }),
  };
}

function attachmentJson(/** @type {any} */ attachment) {
  if (attachment.kind !== 'file' || attachment.bytes === undefined) return attachment;
  const { bytes, ...rest } = attachment;
  return { ...rest, base64: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') };
}
