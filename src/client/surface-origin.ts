import { map, type OperatorFunction } from 'rxjs';
import type { SurfaceView } from '../port/a2ui.js';
import type { TurnEvent } from '../port/events.js';
import type { HistoryPage } from '../port/history.js';

/**
 * The name a surface keeps of the agent that drew it: the agent's card URL without its query and
 * fragment (a hosted agent's key rides in the query, and a surface goes to pages and logs), so that
 * `http://h/a`, `http://h/a/` and `http://h/a?key=K` are one agent, as their threads are.
 */
export function surfaceAgentOf(cardUrl: string): string {
  const url = new URL(cardUrl);
  url.search = '';
  url.hash = '';
  return url.href;
}

/** `view` as drawn by `agent`. */
function drawnBy(view: SurfaceView, agent: string): SurfaceView {
  return { ...view, agent };
}

/**
 * A turn's events with the agent named on its surfaces (`surface` events and the `end`'s surfaces):
 * an action built from one of them (`surfaceAction`) then goes only to that agent. Other events pass
 * as they are.
 */
export function surfacesDrawnBy(agent: string): OperatorFunction<TurnEvent, TurnEvent> {
  return map((event) => {
    if (event.type === 'surface') return { ...event, agent };
    if (event.type === 'end' && event.surfaces !== undefined) {
      return { ...event, surfaces: event.surfaces.map((view) => drawnBy(view, agent)) };
    }
    return event;
  });
}

/** A history page with the agent named on its exchanges' surfaces (see {@link surfacesDrawnBy}). */
export function historyDrawnBy(page: HistoryPage, agent: string): HistoryPage {
  if (!page.exchanges.some((exchange) => exchange.surfaces !== undefined)) return page;
  return {
    ...page,
    exchanges: page.exchanges.map((exchange) =>
      exchange.surfaces === undefined ? exchange : { ...exchange, surfaces: exchange.surfaces.map((view) => drawnBy(view, agent)) },
    ),
  };
}
