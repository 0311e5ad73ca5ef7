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
}

/**
 * The position after `event`, from the one before it (undefined before the task is known): a
 * `task` event names the task, a `text` event moves the count (an append adds its length, a replace
 * sets it). Pure, for a `scan` over a turn's events.
 */
export function positionAfter(position: ReplyPosition | undefined, event: TurnEvent): ReplyPosition | undefined {
  switch (event.type) {
    case 'task':
      return position?.taskId === event.taskId ? position : { taskId: event.taskId, delivered: 0 };
    case 'text':
      if (position === undefined) return undefined;
      return { taskId: position.taskId, delivered: event.replace ? event.text.length : position.delivered + event.text.length };
    default:
      return position;
  }
}

/** A position as an SSE event id: `<delivered>.<taskId>` (the count first, so any task id fits). */
export function formatPosition(position: ReplyPosition): string {
  return `${position.delivered}.${position.taskId}`;
}

/** The position a `Last-Event-ID` carries, or undefined when it is none of ours. */
export function parsePosition(id: string): ReplyPosition | undefined {
  const match = /^(\d{1,15})\.(.+)$/s.exec(id.trim());
  if (match === null) return undefined;
  return { taskId: match[2]!, delivered: Number(match[1]) };
}

/**
 * A resumed turn's events for a client that has the first `delivered` characters of the reply: the
 * `text` events carry only what it lacks. The reply as the resumed turn rebuilds it (from the task's
 * snapshot) is taken to begin with what the client has; a later replace is passed on whole. `end`
 * still carries the whole reply.
 */
export function afterDelivered(delivered: number): MonoTypeOperatorFunction<TurnEvent> {
  return (events) =>
    new Observable<TurnEvent>((subscriber) => {
      /** Characters of the reply the resumed turn has shown so far. */
      let shown = 0;
      /** Still rebuilding what the client has: a replace then is the reply so far, not a correction. */
      let catchingUp = delivered > 0;
      return events.subscribe({
        next: (event) => {
          if (event.type !== 'text' || !catchingUp) return subscriber.next(event);
          const before = event.replace ? 0 : shown;
          shown = before + event.text.length;
          if (shown <= delivered) return;
          catchingUp = false;
          subscriber.next({ type: 'text', text: event.text.slice(Math.max(0, delivered - before)), replace: false });
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
