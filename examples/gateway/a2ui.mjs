/**
 * A2UI at a replica: the catalogs its client tells agents it draws (`--a2ui-catalogs`), and a message
 * body that carries one A2UI action instead of a text, checked and made into the thread's next turn.
 *
 * The replica is stateless: the browser holds the surface, so the body carries the surface's creation
 * message (`createSurface`, v0.8 `beginRendering`) as a `surface` frame gave it, beside the action:
 *
 *     { "action": { "surfaceId", "name", "sourceComponentId", "context"?, "dataModel"?, "timestamp"? },
 *       "surface": { "kind", "surfaceId", "version"?, "message" }, "messageId"?, "taskId"?, … }
 *
 * What is checked, before anything reaches the agent (each failure a 400 in the gateway's words, which
 * echo nothing of the body): the ids are safe ids (request.mjs); the creation is one `createSurface` or
 * `beginRendering` message for the action's surface, its `kind`, `surfaceId` and `version` what its
 * message says; no string or key anywhere is a URL a browser runs (`javascript:`, `data:text/html`, …);
 * nothing nests deeper than {@link MAX_ACTION_DEPTH}; the context, the data model and the creation are
 * each bounded in JSON characters; no field the gateway does not read. The turn is the library's
 * `surfaceAction` (the data model goes only when the creation asked for it), sent to the route's agent
 * only: there is no other agent an action could reach through a replica. Whether the agent drew that
 * surface is the agent's to judge (it holds its surfaces).
 */
import { surfaceAction } from '../../dist/node/index.js';
import { isSafeId, MAX_KEY, quote, Refusal } from './request.mjs';

/** The catalog a replica tells agents it draws, unless told: A2UI v1.0's basic catalog, which the demo's form and the example pages use. */
export const DEFAULT_A2UI_CATALOGS = Object.freeze(['https://a2ui.org/specification/v0_10/catalogs/basic/catalog.json']);
/** The environment variable a replica reads when `--a2ui-catalogs` is not given. */
export const A2UI_CATALOGS_ENV = 'A4H_GATEWAY_A2UI_CATALOGS';
/** Catalogs one replica may name at most, and the longest id (the library's own bound on an id). */
export const MAX_CATALOGS = 16;
export const MAX_CATALOG_ID = 2048;

/** How deep an action's context, its data model or the creation may nest. */
export const MAX_ACTION_DEPTH = 16;
/** The most JSON characters of an action's `context`. */
export const MAX_CONTEXT_CHARS = 8 * 1024;
/** The most JSON characters of an action's `dataModel` (the body itself is at most 64 KiB). */
export const MAX_DATA_MODEL_CHARS = 32 * 1024;
/** The most JSON characters of the creation message. */
export const MAX_CREATION_CHARS = 8 * 1024;

/** URL schemes a browser would run, at a string's start (after spaces): what the library refuses in an agent's A2UI. */
const UNSAFE_URL = /^\s*(?:javascript|vbscript|livescript):|^\s*data:\s*(?:text\/html|application\/xhtml\+xml|image\/svg\+xml)/i;
/** ISO 8601 date and time, as the A2UI action's `timestamp` says. */
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;
/** The fields of a message body that carries an action (the rest of request.mjs's answer fields among them). */
const ACTION_BODY = new Set(['action', 'surface', 'messageId', 'taskId', 'ifGenerationMatch', 'elicitationIds']);
const ACTION_FIELDS = new Set(['surfaceId', 'name', 'sourceComponentId', 'context', 'dataModel', 'timestamp']);
const SURFACE_FIELDS = new Set(['kind', 'surfaceId', 'version', 'message']);
/** The messages that create a surface, by kind: v0.9 and later, and v0.8. */
const CREATIONS = new Set(['createSurface', 'beginRendering']);

/**
 * The catalogs of `--a2ui-catalogs` (or {@link A2UI_CATALOGS_ENV}): ids separated by commas, `none` for
 * none (the client then says nothing of A2UI to agents); {@link DEFAULT_A2UI_CATALOGS} when neither is given.
 * @param {string | undefined} flag @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function a2uiCatalogsOf(flag, env) {
  const value = flag ?? env[A2UI_CATALOGS_ENV];
  if (value === undefined || value === '') return [...DEFAULT_A2UI_CATALOGS];
  if (value.trim() === 'none') return [];
  const ids = value.split(',').map((id) => id.trim());
  const bad = ids.length > MAX_CATALOGS || ids.some((id) => !isSafeId(id, MAX_CATALOG_ID) || /\s/.test(id));
  if (bad) {
    throw new Error(
      `--a2ui-catalogs (or ${A2UI_CATALOGS_ENV}) is none or 1 to ${MAX_CATALOGS} catalog ids separated by commas, not ${quote(value)}`,
    );
  }
  return ids;
}

/** The client's `a2ui` option for `catalogs`: none when empty. @param {readonly string[]} catalogs */
export function a2uiOptionOf(catalogs) {
  return catalogs.length === 0 ? {} : { a2ui: { catalogs: [...catalogs] } };
}

/** Whether a message body carries an A2UI action (its `action` or `surface` field given). @param {Record<string, unknown>} body */
export function carriesAction(body) {
  return body.action !== undefined || body.surface !== undefined;
}

const isRecord = (/** @type {unknown} */ value) => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first name in `value`'s keys not in `known`, or undefined. @param {Record<string, unknown>} value @param {Set<string>} known */
const stranger = (value, known) => Object.keys(value).find((key) => !known.has(key));

/**
 * `value` walked without recursion: refused (a {@link Refusal} naming `what`) when a string or key is a URL a
 * browser runs or it nests deeper than {@link MAX_ACTION_DEPTH}; else its JSON, refused past `maxChars`.
 * @param {unknown} value @param {string} what @param {number} maxChars
 */
function checkedJson(value, what, maxChars) {
  const stack = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: at, depth } = /** @type {{ value: unknown; depth: number }} */ (stack.pop());
    if (typeof at === 'string' && UNSAFE_URL.test(at.slice(0, 64))) throw new Refusal(400, `${what} carries a URL a browser would run`);
    if (typeof at !== 'object' || at === null) continue;
    if (depth >= MAX_ACTION_DEPTH) throw new Refusal(400, `${what} nests deeper than ${MAX_ACTION_DEPTH} levels`);
    for (const [key, item] of Array.isArray(at) ? at.entries() : Object.entries(at)) {
      if (typeof key === 'string' && UNSAFE_URL.test(key.slice(0, 64))) throw new Refusal(400, `${what} carries a URL a browser would run`);
      stack.push({ value: item, depth: depth + 1 });
    }
  }
  const json = JSON.stringify(value);
  if (json.length > maxChars) throw new Refusal(400, `${what} is over ${maxChars} characters of JSON`);
  return json;
}

/** A required id of the action: a safe id that is no URL a browser runs. @param {unknown} value @param {string} name */
function idOf(value, name) {
  if (!isSafeId(value) || UNSAFE_URL.test(/** @type {string} */ (value))) {
    throw new Refusal(400, `action.${name} must be a string of 1 to ${MAX_KEY} characters, no control characters, no script URL`);
  }
  return /** @type {string} */ (value);
}

/**
 * The creation message of the body's `surface`, as a `SurfaceView`'s one message: refused unless it is one
 * `createSurface` (with its `version`) or `beginRendering` (none) about `surfaceId`, its frame fields what it says.
 * @param {unknown} surface @param {string} surfaceId
 */
function creationOf(surface, surfaceId) {
  const refuse = () => {
    throw new Refusal(
      400,
      "surface must be the createSurface (v0.8: beginRendering) message of the action's surface, as its surface frame gave it",
    );
  };
  if (!isRecord(surface) || stranger(surface, SURFACE_FIELDS) !== undefined) return refuse();
  const { kind, surfaceId: about, version, message } = /** @type {Record<string, unknown>} */ (surface);
  if (typeof kind !== 'string' || !CREATIONS.has(kind) || about !== surfaceId || !isRecord(message)) return refuse();
  const agent = /** @type {Record<string, unknown>} */ (message);
  const body = agent[kind];
  const legacy = kind === 'beginRendering';
  const keys = Object.keys(agent).filter((key) => key !== kind);
  const versionOk = legacy
    ? version === undefined && keys.length === 0
    : typeof version === 'string' && isSafeId(version, 16) && agent.version === version && keys.length === 1 && keys[0] === 'version';
  if (!versionOk || !isRecord(body) || /** @type {Record<string, unknown>} */ (body).surfaceId !== surfaceId) return refuse();
  checkedJson(message, 'surface', MAX_CREATION_CHARS);
  return { kind, surfaceId, ...(legacy ? {} : { version }), message: agent };
}

/**
 * The turn fields of a body carrying an A2UI action (checked as this module's comment says), for
 * `a2a.turn({ agent, handle, thread, ...fields, messageId, ...answer })`: `surfaceAction`'s text, data and metadata.
 * @param {Record<string, unknown>} body
 * @returns {{ fields: import('../../dist/index.js').SurfaceActionAnswer; surfaceId: string; name: string }}
 */
export function actionTurnOf(body) {
  if (body.text !== undefined) throw new Refusal(400, 'a message carries a text or an A2UI action, not both');
  const extra = stranger(body, ACTION_BODY);
  if (extra !== undefined) throw new Refusal(400, "a message with an action has only action, surface, messageId and an answer's fields");
  const { action } = body;
  if (!isRecord(action))
    throw new Refusal(400, 'action must be an object: {"surfaceId", "name", "sourceComponentId", "context"?, "dataModel"?, "timestamp"?}');
  const given = /** @type {Record<string, unknown>} */ (action);
  if (stranger(given, ACTION_FIELDS) !== undefined) throw new Refusal(400, 'action has a field the gateway does not read');
  const surfaceId = idOf(given.surfaceId, 'surfaceId');
  const name = idOf(given.name, 'name');
  const sourceComponentId = idOf(given.sourceComponentId, 'sourceComponentId');
  const { context, dataModel, timestamp } = given;
  if (context !== undefined && !isRecord(context)) throw new Refusal(400, 'action.context must be an object');
  if (context !== undefined) checkedJson(context, 'action.context', MAX_CONTEXT_CHARS);
  if (dataModel !== undefined) checkedJson(dataModel, 'action.dataModel', MAX_DATA_MODEL_CHARS);
  if (timestamp !== undefined && (typeof timestamp !== 'string' || timestamp.length > 40 || !TIMESTAMP.test(timestamp))) {
    throw new Refusal(400, 'action.timestamp must be a date and time in ISO 8601 (2026-01-02T03:04:05Z)');
  }
  const creation = creationOf(body.surface, surfaceId);
  const fields = surfaceAction({
    surface: { surfaceId, messages: [/** @type {any} */ (creation)] },
    name,
    sourceComponentId,
    ...(context === undefined ? {} : { context: /** @type {Record<string, unknown>} */ (context) }),
    ...(dataModel === undefined ? {} : { dataModel }),
    ...(timestamp === undefined ? {} : { timestamp: /** @type {string} */ (timestamp) }),
  });
  return { fields, surfaceId, name };
}
