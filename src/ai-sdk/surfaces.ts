/**
 * A2UI surfaces as data parts: a turn's `surface` events folded per surface into one
 * `data-a2a-surface` part each (updated in place), a `surface-refused` event as a
 * `data-a2a-surface-refused` part, and the surfaces an exchange or an end kept as parts.
 */
import type { A2UIMessage, SurfaceView } from '../port/a2ui.js';
import type { SurfaceEvent, SurfaceRefusedEvent } from '../port/events.js';
import type { A2ASurfaceData } from './a2ui-types.js';
import type { A2AUIMessageChunk } from './chunk-types.js';
import type { A2ADataPart } from './types.js';

/** `kept` after `messages`: a creation or a deletion starts the list again, anything else is appended. */
function folded(kept: readonly A2UIMessage[], messages: readonly A2UIMessage[]): A2UIMessage[] {
  let out = [...kept];
  for (const message of messages) {
    const restarts = message.kind === 'createSurface' || message.kind === 'beginRendering' || message.kind === 'deleteSurface';
    out = restarts ? [message] : [...out, message];
  }
  return out;
}

/** The part of one surface: id its `surfaceId`, so that `useChat` updates it in place. */
export function surfacePart(data: A2ASurfaceData): Extract<A2ADataPart, { type: 'data-a2a-surface' }> {
  return { type: 'data-a2a-surface', id: data.surfaceId, data };
}

/** The chunk of a refused A2UI message (no id: each refusal its own part). */
export function refusedChunk(event: SurfaceRefusedEvent): A2AUIMessageChunk {
  const { reason, message, surfaceId } = event;
  return { type: 'data-a2a-surface-refused', data: surfaceId === undefined ? { reason, message } : { reason, message, surfaceId } };
}

/** The parts of the surfaces an end or a past exchange kept (each as its messages left it). */
export function surfaceParts(views: readonly SurfaceView[] | undefined): A2ADataPart[] {
  return (views ?? []).map((view) => surfacePart({ surfaceId: view.surfaceId, messages: [...view.messages] }));
}

/** One turn's surfaces: each `surface` event gives its surface's part again, with the turn's messages about it so far. */
export class TurnSurfaces {
  private readonly kept = new Map<string, A2UIMessage[]>();

  /** The chunk of `event`: its surface's part as it now stands. */
  of(event: SurfaceEvent): A2AUIMessageChunk {
    const messages = folded(this.kept.get(event.surfaceId) ?? [], event.messages);
    this.kept.set(event.surfaceId, messages);
    return surfacePart({ surfaceId: event.surfaceId, messages: [...messages] });
  }
}
