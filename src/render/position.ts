import { Observable, type MonoTypeOperatorFunction } from 'rxjs';
import type { TurnEvent } from '../port/events.js';

/**
 * Where a client's copy of a reply stands: the agent's task, and how many characters of its reply
 * the client has (the `text` events folded). A gateway puts it in each SSE event's `id:` (see
 * {@link formatPosition}); a client that reconnects sends it back as `Last-Event-ID`, and any replica
 * resumes the task from there with nothing stored but that id.
 */
export interface ReplyPosition {
  /** The agent's task. */
  taskId: string;
  /** Characters of the reply delivered. */
  delivered: number;
  /**
   * A checksum of those characters (FNV-1a, 32 bits, 8 hex digits), when the position was made from
   * the text itself ({@link positionAfter}): a resume whose reply does not begin with them corrects the
   * client's copy whole instead of adding to it (a chunk the client got twice, or never).
   */
  digest?: string;
}

/** FNV-1a's 32-bit offset basis and prime. */
const FNV_BASIS = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** The FNV-1a state after `text` (its UTF-16 code units), from `state`. */
function fnv(state: number, text: string): number {
  let hash = state;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, FNV_PRIME) >>> 0;
  }
  return hash;
}

const hex = (state: number): string => state.toString(16).padStart(8, '0');
const stateOf = (digest: string | undefined): number => (digest === undefined ? FNV_BASIS : Number.parseInt(digest, 16));

/**
 * The position after `event`, from the one before it (undefined before the task is known): a
 * `task` event names the task, a `text` event moves the count (an append adds its length, a replace
 * sets it). Pure, for a `scan` over a turn's events.
 */
export function positionAfter(position: ReplyPosition | undefined, event: TurnEvent): ReplyPosition | undefined {
  switch (event.type) {
    case 'task':
      return position?.taskId === event.taskId ? position : { taskId: event.taskId, delivered: 0, digest: hex(FNV_BASIS) };
    case 'text': {
      if (position === undefined) return undefined;
      const delivered = event.replace ? event.text.length : position.delivered + event.text.length;
      // A position without a digest (one a client sent back in the older form) stays without one.
      if (position.digest === undefined && !event.replace) return { taskId: position.taskId, delivered };
      return { taskId: position.taskId, delivered, digest: hex(fnv(event.replace ? FNV_BASIS : stateOf(position.digest), event.text)) };
    }
    default:
      return position;
  }
}

/**
 * A position as an SSE event id: `<delivered>.h<digest>.<taskId>`, or `<delivered>.<taskId>` without a
 * digest (the count first, so any task id fits).
 */
export function formatPosition(position: ReplyPosition): string {
  return position.digest === undefined
    ? `${position.delivered}.${position.taskId}`
    : `${position.delivered}.h${position.digest}.${position.taskId}`;
}

/** The position a `Last-Event-ID` carries (either form of {@link formatPosition}), or undefined when it is none of ours. */
export function parsePosition(id: string): ReplyPosition | undefined {
  const trimmed = id.trim();
  const digested = /^(\d{1,15})\.h([0-9a-f]{8})\.(.+)$/s.exec(trimmed);
  if (digested !== null) return { taskId: digested[3]!, delivered: Number(digested[1]), digest: digested[2]! };
  const match = /^(\d{1,15})\.(.+)$/s.exec(trimmed);
  if (match === null) return undefined;
  return { taskId: match[2]!, delivered: Number(match[1]) };
}

/**
 * A resumed turn's events for a client that has the first `delivered` characters of the reply: the
 * `text` events carry only what it lacks. The reply as the resumed turn rebuilds it (from the task's
 * snapshot) is taken to begin with what the client has — unless `digest` (the client's checksum of
 * those characters) says it does not: then the client's copy is corrected whole, with one `text`
 * event that replaces it. A later replace is passed on whole. `end` still carries the whole reply.
 */
export function afterDelivered(delivered: number, digest?: string): MonoTypeOperatorFunction<TurnEvent> {
  return (events) =>
    new Observable<TurnEvent>((subscriber) => {
      /** The reply as the resumed turn rebuilt it so far, while it catches up. */
      let rebuilt = '';
      /** Still rebuilding what the client has: a replace then is the reply so far, not a correction. */
      let catchingUp = delivered > 0;
      return events.subscribe({
        next: (event) => {
          if (event.type !== 'text' || !catchingUp) return subscriber.next(event);
          rebuilt = event.replace ? event.text : rebuilt + event.text;
          if (rebuilt.length <= delivered) return;
          catchingUp = false;
          const same = digest === undefined || hex(fnv(FNV_BASIS, rebuilt.slice(0, delivered))) === digest;
          subscriber.next(
            same ? { type: 'text', text: rebuilt.slice(delivered), replace: false } : { type: 'text', text: rebuilt, replace: true },
          );
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
