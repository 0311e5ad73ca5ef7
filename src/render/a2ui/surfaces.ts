import type { A2UIMessage, SurfaceView } from '../../port/a2ui.js';
import type { SurfaceEvent, SurfaceRefusedEvent } from '../../port/events.js';
import type { DataPart } from '../../port/types.js';
import { a2uiProblem, isUnsafeUrl } from './guard.js';
import { readA2UIMessage } from './message.js';
import { withSurfaceMessages } from './surface-view.js';
import { a2uiMessagesOf } from './wire.js';

/** The surfaces one turn shows at most; the messages of any other are refused. */
export const MAX_SURFACES_PER_TURN = 32;

/** The components one surface gets in one turn at most (every entry of its component lists counted). */
export const MAX_COMPONENTS_PER_SURFACE = 2_000;

/** The messages one A2UI part holds at most; a part with more is refused whole. */
export const MAX_MESSAGES_PER_PART = 1_000;

/** The characters of A2UI parts one turn takes in all; past it each further part is refused. */
export const MAX_A2UI_TURN_CHARS = 8_000_000;

/** Where surface events go: any array of events. */
type SurfaceOut = { push(event: SurfaceEvent | SurfaceRefusedEvent): unknown };

const COMPONENT_LISTS: Partial<Record<A2UIMessage['kind'], true>> = { updateComponents: true, surfaceUpdate: true };

/**
 * A2UI in one turn: each part's messages read and checked one by one (a refused one is a
 * `surface-refused` event, the others go on), then given as `surface` events, one per run of messages
 * about the same surface, in order. A part seen before (an artifact's whole after its chunks, a task
 * snapshot) gives nothing again. Bounded: {@link MAX_SURFACES_PER_TURN}, {@link MAX_COMPONENTS_PER_SURFACE},
 * {@link MAX_A2UI_TURN_CHARS}.
 */
export class SurfaceSet {
  private readonly seen = new Set<string>();
  private readonly components = new Map<string, number>();
  private chars = 0;
  private views: Readonly<Record<string, SurfaceView>> | undefined;

  /** The turn's surfaces as its messages left them (absent while it drew none, and when every one was deleted). */
  list(): SurfaceView[] | undefined {
    const views = this.views === undefined ? [] : Object.values(this.views);
    return views.length === 0 ? undefined : views;
  }

  /** Whether the turn gave any surface event. */
  get drew(): boolean {
    return this.views !== undefined;
  }

  /** One A2UI part (see `isA2UIPart`) of the agent's answer. */
  part(part: DataPart, out: SurfaceOut): void {
    const raws = a2uiMessagesOf(part);
    if (raws.length > MAX_MESSAGES_PER_PART) {
      out.push({ type: 'surface-refused', reason: 'too-large', message: `an A2UI part holds more than ${MAX_MESSAGES_PER_PART} messages` });
      return;
    }
    // Each message read and checked alone; the part is known again by what was read of it (never by a bomb's JSON).
    const read = raws.map((raw) => this.read(raw));
    // The key grows only as far as the turn's budget (a part past it alone is refused before more is written).
    const refuseSize = (): void => {
      out.push({
        type: 'surface-refused',
        reason: 'too-large',
        message: `the agent's A2UI parts pass ${MAX_A2UI_TURN_CHARS} characters in this turn`,
      });
    };
    const pieces: string[] = [];
    let size = 0;
    for (const item of read) {
      const piece = 'refusal' in item ? `!${item.refusal.reason}` : JSON.stringify(item.message.message);
      size += piece.length + 1;
      if (size > MAX_A2UI_TURN_CHARS) return refuseSize();
      pieces.push(piece);
    }
    const key = pieces.join('\n');
    if (this.seen.has(key)) return;
    if (this.chars + size > MAX_A2UI_TURN_CHARS) return refuseSize();
    this.chars += size;
    this.seen.add(key);
    // Refusals go out as they come; the runs between them, whole, so that what is pushed never changes.
    let run: SurfaceEvent | undefined;
    const flush = (): void => {
      if (run === undefined) return;
      this.views = withSurfaceMessages(this.views, run.surfaceId, run.messages);
      out.push(run);
      run = undefined;
    };
    for (const item of read) {
      const refusal = 'refusal' in item ? item.refusal : this.bounded(item.message);
      if (refusal !== undefined) {
        flush();
        out.push(refusal);
        continue;
      }
      const message = (item as { message: A2UIMessage }).message;
      if (message.surfaceId === undefined) continue; // an actionResponse answers an action: no surface to draw
      if (run !== undefined && run.surfaceId === message.surfaceId) run.messages.push(message);
      else {
        flush();
        run = { type: 'surface', surfaceId: message.surfaceId, messages: [message] };
      }
    }
    flush();
  }

  /** One message read and checked for what it holds (a URL a browser runs, nesting, size). */
  private read(raw: unknown): { message: A2UIMessage } | { refusal: SurfaceRefusedEvent } {
    const problem = a2uiProblem(raw);
    const message = problem === undefined || problem.reason === 'unsafe-url' ? readA2UIMessage(raw) : undefined;
    if (typeof message === 'string') return { refusal: { type: 'surface-refused', reason: 'malformed', message } };
    if (problem === undefined && message !== undefined) return { message };
    const refusal: SurfaceRefusedEvent = { type: 'surface-refused', reason: problem!.reason, message: problem!.message };
    // The refusal names the surface unless its id is itself what was refused (a `javascript:` id).
    if (message?.surfaceId !== undefined && !isUnsafeUrl(message.surfaceId)) refusal.surfaceId = message.surfaceId;
    return { refusal };
  }

  /** The refusal of a message past the turn's bounds (surfaces, components), or undefined; counted when it passes. */
  private bounded(message: A2UIMessage): SurfaceRefusedEvent | undefined {
    const surfaceId = message.surfaceId;
    if (surfaceId === undefined) return undefined;
    const refuse = (reason: SurfaceRefusedEvent['reason'], why: string): SurfaceRefusedEvent => ({
      type: 'surface-refused',
      surfaceId,
      reason,
      message: why,
    });
    const count = this.components.get(surfaceId);
    if (count === undefined && this.components.size >= MAX_SURFACES_PER_TURN) {
      return refuse('too-many-surfaces', `the agent drew more than ${MAX_SURFACES_PER_TURN} surfaces in this turn`);
    }
    const body = message.message[message.kind] as Record<string, unknown>;
    const list = COMPONENT_LISTS[message.kind] ? body['components'] : undefined;
    const added = Array.isArray(list) ? list.length : 0;
    if ((count ?? 0) + added > MAX_COMPONENTS_PER_SURFACE) {
      return refuse('too-many-components', `the agent's surface has more than ${MAX_COMPONENTS_PER_SURFACE} components`);
    }
    this.components.set(surfaceId, (count ?? 0) + added);
    return undefined;
  }
}
