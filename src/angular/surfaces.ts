import { computed, signal, type Signal } from '@angular/core';
import type { SurfaceRefusedEvent, TurnEvent } from '../port/events.js';
import type { SurfaceView } from '../port/a2ui.js';
import type { HistoryExchange } from '../port/history.js';
import { withSurfaceMessages } from '../render/a2ui/surface-view.js';

/** The most surfaces a conversation keeps (the oldest drawn first forgotten). */
export const MAX_CONVERSATION_SURFACES = 32;
/** The most refusals a turn keeps (the first ones). */
export const MAX_TURN_REFUSALS = 20;
/** The most surfaces deleted by the conversation's turns it remembers (so the past does not bring them back). */
const MAX_DELETED = 256;

/** A conversation's A2UI surfaces across its turns and its past, and the current turn's refusals, as signals. */
export interface ConversationSurfaces {
  /**
   * Every surface the thread's past (its history exchanges) and the conversation's turns drew, as their
   * messages left it: the past's first (oldest drawn first), then those only the turns drew.
   */
  readonly surfaces: Signal<readonly SurfaceView[]>;
  /** The A2UI messages the current turn refused (the first {@link MAX_TURN_REFUSALS}). */
  readonly refused: Signal<readonly SurfaceRefusedEvent[]>;
  /** A new turn starts: its refusals start empty; the surfaces stay. */
  turnStarts(): void;
  /** One of the turn's events: a `surface` event updates its surface, a `surface-refused` one is kept. */
  take(event: TurnEvent): void;
}

/**
 * The surfaces of the past: each exchange's, oldest exchange first, applied in turn (a later exchange's
 * answer updates the form an earlier one created; a deletion drops it), each in the place it was first drawn.
 */
function pastSurfaces(exchanges: readonly HistoryExchange[]): ReadonlyMap<string, SurfaceView> {
  const byId = new Map<string, SurfaceView>();
  for (const exchange of exchanges) {
    for (const { surfaceId, messages, agent } of exchange.surfaces ?? []) {
      const before = byId.get(surfaceId);
      const after = withSurfaceMessages(before === undefined ? {} : { [surfaceId]: before }, surfaceId, messages, agent)[surfaceId];
      if (after === undefined) byId.delete(surfaceId);
      else byId.set(surfaceId, after); // a Map keeps a key's first place
    }
  }
  return byId;
}

/**
 * The surfaces of a conversation: the thread's past (`history`: the exchanges loaded, oldest first, each
 * its surfaces as they stand) under each turn's `surface` events, applied to what came before (a turn
 * that answers an action updates the surface an earlier turn, or an exchange of the past, created, which
 * its own view alone does not hold), a `deleteSurface` removing one and a new creation restarting it in
 * its place. A surface a turn deleted stays gone when an earlier page of the past brings it again.
 */
export function conversationSurfaces(history: Signal<readonly HistoryExchange[]> = signal([])): ConversationSurfaces {
  /** What the turns drew: a surface they did not create holds only their messages about it. */
  const byId = new Map<string, SurfaceView>();
  /** Surfaces the turns deleted (the oldest forgotten first). */
  const deleted = new Set<string>();
  const live = signal<ReadonlyMap<string, SurfaceView>>(new Map());
  const past = computed(() => pastSurfaces(history()));
  const refused = signal<readonly SurfaceRefusedEvent[]>([]);
  const surfaces = computed((): readonly SurfaceView[] => {
    const turns = live();
    const merged: SurfaceView[] = [];
    for (const [surfaceId, before] of past()) {
      if (deleted.has(surfaceId) && !turns.has(surfaceId)) continue;
      const after = turns.get(surfaceId);
      if (after === undefined) merged.push(before);
      else if (restarts(after)) merged.push(after);
      else merged.push(withSurfaceMessages({ [surfaceId]: before }, surfaceId, after.messages, after.agent)[surfaceId] ?? before);
    }
    for (const [surfaceId, view] of turns) if (!past().has(surfaceId)) merged.push(view);
    return merged.slice(-MAX_CONVERSATION_SURFACES);
  });
  return {
    surfaces,
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
      const after = withSurfaceMessages(before === undefined ? {} : { [surfaceId]: before }, surfaceId, event.messages, event.agent)[
        surfaceId
      ];
      if (after === undefined) {
        byId.delete(surfaceId);
        deleted.delete(surfaceId);
        deleted.add(surfaceId);
        for (const id of deleted) if (deleted.size > MAX_DELETED) deleted.delete(id);
      } else {
        byId.set(surfaceId, after); // an update keeps the surface's place
        deleted.delete(surfaceId);
      }
      for (const id of byId.keys()) if (byId.size > MAX_CONVERSATION_SURFACES) byId.delete(id);
      live.set(new Map(byId));
    },
  };
}

/** Whether a turn's view of a surface starts it over (its first message creates it): the past's is then replaced. */
function restarts(view: SurfaceView): boolean {
  const kind = view.messages[0]?.kind;
  return kind === 'createSurface' || kind === 'beginRendering';
}
