import { identity, type MonoTypeOperatorFunction, type SchedulerLike } from 'rxjs';
import { coalesceViews } from '../rx/coalesce-views.js';

/**
 * How often a view helper (`turnState`, `threadTranscript`, the Angular conversation) hands a view
 * over. Without `coalesceMs` (or with 0) it hands over one per event, as a reducer would.
 */
export interface CoalesceOptions {
  /**
   * At most one view per this many milliseconds while a turn runs: the first at once, then the
   * latest of each window at its end; a turn's end (or error) at once, the view waiting in the
   * window dropped; on completion the waiting one at once. Absent or 0: every view. E.g. 50.
   */
  coalesceMs?: number;
  /** The clock of the window; default RxJS's `asyncScheduler` (virtual time in marble tests). Tests may pass their own. */
  scheduler?: SchedulerLike;
}

/** `coalesceViews` as the view helpers' options ask: nothing at all without `coalesceMs` (or with 0). */
export function coalesceBy<T>(options: CoalesceOptions, isFinal: (value: T) => boolean): MonoTypeOperatorFunction<T> {
  return options.coalesceMs === undefined ? identity : coalesceViews(options.coalesceMs, isFinal, options.scheduler);
}
