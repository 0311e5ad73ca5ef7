import { A2AError } from '../errors.js';
import { checkOutgoingParts, outgoingData, outgoingFiles } from '../port/outgoing.js';
import type { OutgoingMessage, PushTarget } from '../port/types.js';
import { MAX_ID_CHARS } from '../render/ids.js';

/** One user message to an agent, with the thread's ids: the message shape the port sends. */
export type TurnRequest = OutgoingMessage;

/**
 * Refuses a request the ladder cannot send: empty text (and no file or data), empty ids, files and
 * data it cannot carry or larger than `maxAttachmentBytes`. Throws an `input` {@link A2AError}.
 */
export function checkRequest(request: TurnRequest, maxAttachmentBytes = Number.POSITIVE_INFINITY): void {
  const files = outgoingFiles(request);
  const data = outgoingData(request);
  if (files !== undefined || data !== undefined) checkOutgoingParts(files, data, maxAttachmentBytes);
  const attached = (files?.length ?? 0) + (data?.length ?? 0) > 0;
  const said = request.parts === undefined ? request.text : request.parts.map((part) => (part.kind === 'text' ? part.text : '')).join('');
  if (typeof request.text !== 'string' || (said.trim() === '' && !attached)) {
    throw new A2AError({ kind: 'input', operation: 'turn', message: 'the message text is empty' });
  }
  checkCallerIds(request);
  if (request.push !== undefined) checkPushTarget(request.push);
  const match = request.ifGenerationMatch;
  if (match !== undefined && (!Number.isSafeInteger(match) || match < 1 || request.taskId === undefined)) {
    throw new A2AError({
      kind: 'input',
      operation: 'turn',
      message: 'ifGenerationMatch must be a generation (a whole number from 1) of the task the message names (taskId)',
    });
  }
  if (request.elicitationIds !== undefined) checkElicitationIds(request.elicitationIds, request.taskId);
  if (request.metadata !== undefined) checkMetadata(request.metadata);
}

/** The most characters of a message's metadata, as JSON. */
const MAX_METADATA_CHARS = 1_048_576;

/** Refuses message metadata that is not a JSON object of bounded size. */
function checkMetadata(metadata: unknown): void {
  let json: string | undefined;
  try {
    json = typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? JSON.stringify(metadata) : undefined;
  } catch {
    json = undefined;
  }
  if (json === undefined || json.length > MAX_METADATA_CHARS) {
    throw new A2AError({
      kind: 'input',
      operation: 'turn',
      message: `metadata must be a JSON object of at most ${MAX_METADATA_CHARS} characters`,
    });
  }
}

/** The most elicitation ids one message names. */
const MAX_ELICITATION_IDS = 64;

/** Refuses `elicitationIds` that are not a short list of ids of the task the message continues. */
function checkElicitationIds(ids: unknown, taskId: string | undefined): void {
  const refuse = (why: string, at = ''): never => {
    throw new A2AError({ kind: 'input', operation: 'turn', message: `elicitationIds${at} ${why}` });
  };
  if (!Array.isArray(ids)) refuse('must be a list of ids');
  const list = ids as unknown[];
  if (list.length > MAX_ELICITATION_IDS) refuse(`names ${list.length} requests; at most ${MAX_ELICITATION_IDS}`);
  if (list.length > 0 && taskId === undefined) refuse('name requests of a task: give the task (taskId) too');
  list.forEach((id, at) => {
    const why = callerIdProblem(id);
    if (why !== undefined) refuse(why, `[${at}]`);
  });
}

/**
 * Refuses a push target a caller hands in that the agent could not use or that could steer a header:
 * an `http(s)` URL, and a token and id that are non-empty strings without control characters or
 * spaces. Never quotes the token.
 */
function checkPushTarget(target: PushTarget): void {
  const refuse = (what: string): never => {
    throw new A2AError({ kind: 'input', operation: 'turn', message: `push.${what}` });
  };
  let url: URL | undefined;
  try {
    url = new URL(target.url);
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) refuse('url must be an http(s) URL');
  for (const key of ['token', 'id'] as const) {
    const value: unknown = target[key];
    if (typeof value !== 'string' || value === '' || value.length > 4096 || /[\s\u0000-\u001f\u007f-\u009f]/.test(value)) {
      refuse(`${key} must be a non-empty string without spaces or control characters`);
    }
  }
}

/**
 * Refuses an id the caller hands in (`contextId`, `taskId`, `messageId`) that is given but not a
 * non-empty string, longer than {@link MAX_ID_CHARS} (the bound the agent's ids have) or holding a
 * control character (ids go into headers, URLs and logs). Throws an `input` {@link A2AError} naming
 * the field, never quoting the value.
 */
export function checkCallerIds(ids: { contextId?: unknown; taskId?: unknown; messageId?: unknown }): void {
  for (const key of ['contextId', 'taskId', 'messageId'] as const) {
    const value = ids[key];
    if (value === undefined) continue;
    const why = callerIdProblem(value);
    if (why !== undefined) throw new A2AError({ kind: 'input', operation: 'turn', message: `${key} ${why}` });
  }
}

/** What is wrong with an id a caller hands in, or undefined when it may be used. */
export function callerIdProblem(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return 'must be a non-empty string when given';
  if (value.length > MAX_ID_CHARS) return `is ${value.length} characters long; ids are at most ${MAX_ID_CHARS}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(value)) return 'holds a control character';
  return undefined;
}
