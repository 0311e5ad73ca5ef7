/**
 * What `@a2ui/angular` 0.8.3 can draw of the conversation's surfaces, and the messages that bring its
 * message processor up to date with them. That renderer knows A2UI v0.8 only (`beginRendering`,
 * `surfaceUpdate`, `dataModelUpdate`, `deleteSurface`; its catalog's component shapes); a surface in
 * another version (the demo agent's v1.0 form) is listed apart, for the page to say it is not drawn.
 */
import type { A2UIMessage, SurfaceView } from 'a4h-a2a/angular';

/** The v0.8 message kinds, the only ones @a2ui/angular 0.8.3 processes. */
const V08_KINDS: ReadonlySet<A2UIMessage['kind']> = new Set(['beginRendering', 'surfaceUpdate', 'dataModelUpdate', 'deleteSurface']);

/** Whether `surface` is A2UI v0.8 throughout: no message says a version, every one is of a v0.8 kind. */
export function isV08(surface: SurfaceView): boolean {
  return surface.messages.length > 0 && surface.messages.every((message) => message.version === undefined && V08_KINDS.has(message.kind));
}

/** The version a surface this renderer cannot draw says (its first message's), for the page's note. */
export const versionOf = (surface: SurfaceView): string =>
  surface.messages.find((message) => message.version !== undefined)?.version ?? 'unknown';

/** The messages one surface needs next (a deletion alone for a surface gone). */
export interface SurfaceBatch {
  surfaceId: string;
  messages: Record<string, unknown>[];
}

/**
 * Feeds a message processor incrementally, surface by surface: each call gives the messages the
 * processor has not had yet (copies: the processor keeps and may change what it is given), a surface
 * restarted (created again) or gone deleted first. The person's edits to a surface's data model stay
 * until the agent changes it. A surface `forget` was called for is fed whole again at its next change.
 */
export class SurfaceFeed {
  /** Per surface fed: its first message (a restart makes a new one) and how many were fed. */
  readonly #fed = new Map<string, { first: A2UIMessage; count: number }>();

  next(surfaces: readonly SurfaceView[]): SurfaceBatch[] {
    const out: SurfaceBatch[] = [];
    const now = new Set<string>();
    for (const { surfaceId, messages } of surfaces.filter(isV08)) {
      now.add(surfaceId);
      const fed = this.#fed.get(surfaceId);
      if (fed !== undefined && fed.first === messages[0] && fed.count === messages.length) continue;
      const restarted = fed === undefined || fed.first !== messages[0] || fed.count > messages.length;
      out.push({
        surfaceId,
        messages: [
          ...(restarted && fed !== undefined ? [{ deleteSurface: { surfaceId } }] : []),
          ...messages.slice(restarted ? 0 : fed.count).map((message) => structuredClone(message.message)),
        ],
      });
      this.#fed.set(surfaceId, { first: messages[0]!, count: messages.length });
    }
    for (const surfaceId of [...this.#fed.keys()]) {
      if (now.has(surfaceId)) continue;
      out.push({ surfaceId, messages: [{ deleteSurface: { surfaceId } }] });
      this.#fed.delete(surfaceId);
    }
    return out;
  }

  /** Forgets what `surfaceId` was fed (the processor dropped it): its next change feeds it whole. */
  forget(surfaceId: string): void {
    this.#fed.delete(surfaceId);
  }
}
