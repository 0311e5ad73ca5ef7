/**
 * A2UI (agent-to-UI, an A2A extension: a2ui.org) as the turn gives it: the agent's messages about its
 * surfaces, read and checked, renderer-agnostic, and why one was refused.
 */

/**
 * The kinds of A2UI messages an agent sends: v0.9 and later (`createSurface`, `updateComponents`,
 * `updateDataModel`, `deleteSurface`, `actionResponse`) and v0.8 (`beginRendering`, `surfaceUpdate`,
 * `dataModelUpdate`, `deleteSurface`).
 */
export type A2UIMessageKind =
  | 'createSurface'
  | 'updateComponents'
  | 'updateDataModel'
  | 'deleteSurface'
  | 'actionResponse'
  | 'beginRendering'
  | 'surfaceUpdate'
  | 'dataModelUpdate';

/** One A2UI message from the agent, renderer-agnostic: a renderer takes `message` as it came. */
export interface A2UIMessage {
  /** The message's kind (its one key besides `version`). */
  kind: A2UIMessageKind;
  /** The surface it is about; absent only on an `actionResponse` (which names its `actionId`). */
  surfaceId?: string;
  /** The version the message says (`"v1.0"`, `"v0.9"`); absent when it says none (v0.8). */
  version?: string;
  /** The message as the agent sent it (the envelope), for a renderer's message processor. */
  message: Record<string, unknown>;
}

/** Why a turn refused one of the agent's A2UI messages (the others go on). */
export type A2UIRefusal = 'unsafe-url' | 'too-deep' | 'too-large' | 'malformed' | 'too-many-surfaces' | 'too-many-components';

/**
 * One surface as a turn left it: the agent's messages about it since it was created (a `deleteSurface`
 * ends it), in order, for a renderer to replay: the surface as it stands.
 */
export interface SurfaceView {
  /** The surface's id. */
  surfaceId: string;
  /** Its messages since its `createSurface` (or `beginRendering`, v0.8; or since the turn began, for one created earlier). */
  messages: readonly A2UIMessage[];
  /**
   * The agent that drew it, as the client names it for an action's check ({@link SurfaceEvent.agent}):
   * set by the client's turns and history; absent on a surface made by hand.
   */
  agent?: string;
}

/**
 * A2UI: the agent's messages about one of its surfaces (a form, a card, a picker), in order, from one
 * part of its answer: hand them to a renderer's message processor together, and repaint after. The same
 * part repeated (a chunk's whole, a snapshot) is not given again. Checked first: see `surface-refused`.
 */
export interface SurfaceEvent {
  /** Discriminant. */
  type: 'surface';
  /** The surface the messages are about. */
  surfaceId: string;
  /** The messages, as the agent sent them, with their kind and version read. */
  messages: A2UIMessage[];
  /**
   * The agent that drew the surface: its card URL without the query (which may carry a key), as the
   * client's turn addressed it. `surfaceAction` carries it so that an action goes only to that agent.
   */
  agent?: string;
}

/**
 * A2UI: one of the agent's messages was refused and given to no renderer (a URL a browser would run,
 * nesting or size past the bounds, too many surfaces or components in the turn, a malformed message);
 * the turn and the other messages go on.
 */
export interface SurfaceRefusedEvent {
  /** Discriminant. */
  type: 'surface-refused';
  /** The surface the message was about, when it named one. */
  surfaceId?: string;
  /** Why. */
  reason: A2UIRefusal;
  /** What was refused, in a sentence (no content of the message). */
  message: string;
}

/** A2UI's media type (the extension specification's spelling). */
export const A2UI_MEDIA_TYPE = 'application/a2ui+json';

/** The spelling the official A2UI agent SDK still writes for v0.8 and v0.9 (the specification calls it deprecated). */
export const A2UI_MEDIA_TYPE_SDK = 'application/json+a2ui';

const SPELLINGS: ReadonlySet<string> = new Set([A2UI_MEDIA_TYPE, A2UI_MEDIA_TYPE_SDK]);

/** Whether a media type names A2UI, in either spelling (a parameter such as `; charset=utf-8` aside). */
export function isA2UIMediaType(value: unknown): boolean {
  return typeof value === 'string' && SPELLINGS.has(value.split(';')[0]!.trim().toLowerCase());
}

/** What every A2UI extension URI starts with (`…/v1.0`, `…/v0.8`). */
export const A2UI_EXTENSION_PREFIX = 'https://a2ui.org/a2a-extension/a2ui/';
