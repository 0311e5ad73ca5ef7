import type { A2UIMessage, SurfaceView } from '../../port/a2ui.js';

/**
 * `surfaces` after the agent's messages about `surfaceId`: appended, restarted by a creation, removed
 * by a deletion; `agent`, when given, names the agent that drew it (kept from before otherwise).
 */
export function withSurfaceMessages(
  surfaces: Readonly<Record<string, SurfaceView>> | undefined,
  surfaceId: string,
  messages: readonly A2UIMessage[],
  agent?: string,
): Readonly<Record<string, SurfaceView>> {
  const next: Record<string, SurfaceView> = { ...surfaces };
  let kept: A2UIMessage[] = [...(next[surfaceId]?.messages ?? [])];
  let deleted = false;
  for (const message of messages) {
    if (message.kind === 'deleteSurface') {
      kept = [];
      deleted = true;
    } else {
      if (message.kind === 'createSurface' || message.kind === 'beginRendering') kept = [];
      kept.push(message);
      deleted = false;
    }
  }
  if (deleted && kept.length === 0) delete next[surfaceId];
  else {
    const drawnBy = agent ?? next[surfaceId]?.agent;
    next[surfaceId] = drawnBy === undefined ? { surfaceId, messages: kept } : { surfaceId, messages: kept, agent: drawnBy };
  }
  return next;
}
