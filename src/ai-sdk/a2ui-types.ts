/**
 * The A2UI shapes of the AI SDK entry (declared structurally, as types.ts's): a surface as its data part
 * holds it, a refused message, and the person's action on a surface as the data part `sendMessage` sends.
 */
import type { A2UIMessage, A2UIRefusal } from '../port/a2ui.js';

/**
 * One of the agent's A2UI surfaces in an assistant message (the part `data-a2a-surface`, id its
 * `surfaceId`, updated in place as the turn goes): the surface's messages in that turn, in order, as
 * they leave it. A creation starts the list again (a surface drawn anew); a deletion leaves only the
 * `deleteSurface` message. Replaying every message's surface parts in the chat's order into one
 * renderer shows each surface as it stands; the part that holds the creation is the one to hand to
 * `surfaceAction` (its `surface`).
 */
export type A2ASurfaceData = {
  /** The surface's id. */
  surfaceId: string;
  /** Its messages in the turn, each as the agent sent it (`message`), with its kind and version read. */
  messages: A2UIMessage[];
};

/** One of the agent's A2UI messages refused before any renderer (the part `data-a2a-surface-refused`). */
export type A2ASurfaceRefusedData = {
  /** Why, by kind. */
  reason: A2UIRefusal;
  /** What was refused, in a sentence (nothing of the message's content). */
  message: string;
  /** The surface it was about, when it named one. */
  surfaceId?: string;
};

/**
 * The person's action on a surface, as a data part of their message (`data-a2a-action`):
 * `sendMessage({ parts: [{ type: 'data-a2a-action', data }] })`. The transport finds the surface among
 * the chat's `data-a2a-surface` parts (the one that created it) and sends the action as
 * `surfaceAction` builds it, in the surface's version, with its data model only when the surface asked.
 */
export type A2AActionData = {
  /** The surface acted on. */
  surfaceId: string;
  /** The action's name, as the component's action names it. */
  name: string;
  /** The component the person used. */
  sourceComponentId: string;
  /** The action's context, as the renderer resolved it against the data model. */
  context?: Record<string, unknown>;
  /** The surface's data model as the renderer holds it (sent only to a surface created with `sendDataModel`). */
  dataModel?: unknown;
  /** When it happened (ISO 8601); default when it is sent. */
  timestamp?: string;
};
