import { signal, type Signal } from '@angular/core';
import type { SurfaceRefusedEvent, TurnEvent } from '../port/events.js';
import type { SurfaceView } from '../port/a2ui.js';
import { withSurfaceMessages } from '../render/a2ui/surface-view.js';

/** The most surfaces a conversation keeps (the oldest drawn first forgotten). */
export const MAX_CONVERSATION_SURFACES = 32;
/** The most refusals a turn keeps (the first ones). */
export const MAX_TURN_REFUSALS = 20;

/** A conversation's A2UI surfaces across its turns, and the current turn's refusals, as signals. */
export interface ConversationSurfaces {
  /** Every surface the conversation's turns drew, as their messages left it (oldest drawn first). */
  readonly surfaces: Signal<readonly SurfaceView[]>;
  /** The A2UI messages the current turn refused (the first {@link MAX_TURN_REFUSALS}). */
  readonly refused: Signal<readonly SurfaceRefusedEvent[]>;
  /** A new turn starts: its refusals start empty; the surfaces stay. */
  turnStarts(): void;
  /** One of the turn's events: a `surface` event updates its surface, a `surface-refused` one is kept. */
  take(event: TurnEvent): void;
}

/**
 * The surfaces of a conversation: each turn's `surface` events applied to what the earlier turns drew
 * (a turn that answers an action updates the surface a turn before created, which its own view alone
 * does not hold), a `deleteSurface` removing one and a new creation restarting it in its place.
 */
export function conversationSurfaces(): ConversationSurfaces {
  const byId = new Map<string, SurfaceView>();
  const surfaces = signal<readonly SurfaceView[]>([]);
  const refused = signal<readonly SurfaceRefusedEvent[]>([]);
  return {
    surfaces: surfaces.asReadonly(),
    refused: refused.asReadonly(),
    turnStarts: () => refused.set([]),
    take: (event) => {
      if (event.type === 'surface-refused') {
        if (refused().length < MAX_TURN_REFUSALS) refused.update((list) => [...list, event]);
        return;
      }
      if (event.type !== 'surface') return;
      const { surfaceId } = event;
      const before = byId.get(surfaceId);
      const after = withSurfaceMessages(before === undefined ? {} : { [surfaceId]: before }, surfaceId, event.messages)[surfaceId];
      if (after === undefined) byId.delete(surfaceId);
      else byId.set(surfaceId, after); // an update keeps the surface's place
      for (const id of byId.keys()) if (byId.size > MAX_CONVERSATION_SURFACES) byId.delete(id);
      surfaces.set([...byId.values()]);
    },
  };
}
