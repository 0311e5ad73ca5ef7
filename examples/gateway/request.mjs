/**
 * What a gateway replica reads from a request, checked before anything reaches the agent: the thread
 * key of the path (percent-encoded, no control characters), ids (bounded), a `Last-Event-ID`
 * position, a small JSON body. A request that fails a check is a {@link Refusal}: a status and a
 * reason that echoes nothing of the input. Logs quote keys and ids with {@link quote}.
 */
import { parsePosition } from '../../dist/node/index.js';

/** Longest thread key, message id or task id accepted (characters). */
export const MAX_KEY = 200;
/** Longest JSON body accepted (bytes). */
export const MAX_BODY = 64 * 1024;

/** Characters that would forge or hide a log line: C0 and C1 controls, line and paragraph separators, bidi overrides. */
const UNSAFE = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;
const UNSAFE_ALL = /[\p{Cc}\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/**
 * A request the gateway refuses: an HTTP status, a short reason, headers to send with it, and fields the
 * JSON body carries beside `error` (a 429's `limit` and `retryAfter`).
 */
export class Refusal extends Error {
  /** @param {number} status @param {string} message @param {Record<string, string>} [headers] @param {Record<string, string | number>} [details] */
  constructor(status, message, headers = {}, details = {}) {
    super(message);
    this.status = status;
    this.headers = headers;
    this.details = details;
  }
}

/** How much of a name (a user, a thread key, an id) a log line shows. */
export const NAME_CHARS = 64;

/** How much of a reason (an error's message, which names what failed and why) a log line shows. */
export const REASON_CHARS = 1000;

/**
 * A value for a log line: JSON-quoted (so a newline or an escape sequence cannot forge a line), the
 * separators and bidi controls JSON leaves alone escaped too, cut at `max` characters ({@link
 * NAME_CHARS} by default; an error's reason takes {@link REASON_CHARS}, so why a resume failed is kept).
 * @param {unknown} value
 * @param {number} [max]
 */
export function quote(value, max = NAME_CHARS) {
  const text = String(value);
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut).replace(UNSAFE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Whether `value` is a usable key or id: a non-empty string of at most `max` characters, none of them unsafe. */
export function isSafeId(/** @type {unknown} */ value, max = MAX_KEY) {
  return typeof value === 'string' && value !== '' && value.length <= max && !UNSAFE.test(value);
}

/** The thread key of a path segment: valid percent-encoding, at most {@link MAX_KEY} characters, no control character. */
export function threadKeyOf(/** @type {string} */ segment) {
  let key;
  try {
    key = decodeURIComponent(segment);
  } catch {
    throw new Refusal(400, 'the thread key is not valid percent-encoding');
  }
  if (key.length > MAX_KEY) throw new Refusal(400, `a thread key is at most ${MAX_KEY} characters`);
  if (!isSafeId(key)) throw new Refusal(400, 'a thread key has no control characters');
  return key;
}

/** An optional id of a body or query (`messageId`, `taskId`): absent, or a safe id; refused otherwise. */
export function optionalId(/** @type {unknown} */ value, /** @type {string} */ name) {
  if (value === undefined || value === null) return undefined;
  if (!isSafeId(value)) throw new Refusal(400, `${name} must be a string of 1 to ${MAX_KEY} characters, no control characters`);
  return /** @type {string} */ (value);
}

/** The most `elicitationIds` one answer names (the library's own bound). */
export const MAX_ELICITATION_IDS = 64;

/**
 * What a message body says it answers, checked: `taskId` (the question's task), `ifGenerationMatch` (the
 * generation it was asked at: a whole number from 1) and `elicitationIds` (the agent's requests for input it
 * answers: a list of at most {@link MAX_ELICITATION_IDS} safe ids). Both of the last go with `taskId`.
 * @param {Record<string, unknown>} body
 * @returns {{ taskId?: string; ifGenerationMatch?: number; elicitationIds?: string[] }}
 */
export function answerOf(body) {
  const taskId = optionalId(body.taskId, 'taskId');
  const generation = body.ifGenerationMatch;
  const ids = body.elicitationIds;
  const given = (/** @type {unknown} */ value) => value !== undefined && value !== null;
  if ((given(generation) || given(ids)) && taskId === undefined) {
    throw new Refusal(400, 'ifGenerationMatch and elicitationIds go with taskId: the task of the question answered');
  }
  const answer = taskId === undefined ? {} : { taskId };
  if (given(generation)) {
    if (!Number.isSafeInteger(generation) || /** @type {number} */ (generation) < 1) {
      throw new Refusal(400, "ifGenerationMatch must be a whole number from 1 (the end's interrupt.generation)");
    }
    Object.assign(answer, { ifGenerationMatch: generation });
  }
  if (given(ids)) {
    if (!Array.isArray(ids) || ids.length > MAX_ELICITATION_IDS) {
      throw new Refusal(400, `elicitationIds must be a list of at most ${MAX_ELICITATION_IDS} ids`);
    }
    if (!ids.every((id) => isSafeId(id))) {
      throw new Refusal(400, `each of elicitationIds must be a string of 1 to ${MAX_KEY} characters, no control characters`);
    }
    if (ids.length > 0) Object.assign(answer, { elicitationIds: [...ids] });
  }
  return answer;
}

/**
 * `?sent=` of a resume by message: when the client first posted it (milliseconds since the epoch, at
 * most 15 digits), or undefined when not given; refused without `?message=` or when malformed.
 */
export function sentAtOf(/** @type {string | null} */ value, /** @type {string | undefined} */ messageId) {
  if (value === null) return undefined;
  if (messageId === undefined) throw new Refusal(400, 'sent goes with message: when that message was sent');
  if (!/^\d{1,15}$/.test(value)) throw new Refusal(400, 'sent must be a time in milliseconds since the epoch');
  return Number(value);
}

/** The position of a `Last-Event-ID` (or `?from=`), undefined when none was sent; a malformed one is refused. */
export function positionOf(/** @type {string | string[] | null | undefined} */ id) {
  if (id === undefined || id === null || id === '') return undefined;
  const position = typeof id === 'string' && id.length <= MAX_KEY + 26 ? parsePosition(id) : undefined;
  if (position === undefined || !isSafeId(position.taskId)) throw new Refusal(400, 'Last-Event-ID is not a position this gateway wrote');
  return position;
}

/** The request's JSON body (at most {@link MAX_BODY} bytes) as an object. */
export async function readJson(/** @type {import('node:http').IncomingMessage} */ req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > MAX_BODY) throw new Refusal(413, `the body is over ${MAX_BODY} bytes`);
    chunks.push(chunk);
  }
  try {
    const value = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value;
  } catch {
    // refused below
  }
  throw new Refusal(400, 'the body must be a JSON object');
}
