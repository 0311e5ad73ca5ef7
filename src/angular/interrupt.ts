import { defer, map, tap, type Observable, type OperatorFunction } from 'rxjs';
import type { Interrupt, TurnErrorEvent, TurnEvent } from '../port/events.js';
import { turnState, type TurnView } from '../render/view.js';

/** What the conversation shows of a turn at one moment: its view, and the question its end waits on. */
export interface Shown {
  /** The turn's view, as `turnState()` folds it. */
  view: TurnView;
  /** The `end` event's interrupt, on the view of that end (the turn ended on a question); absent before and otherwise. */
  interrupt?: Interrupt;
}

/**
 * `turnState()` (one view per event, nothing held back), each view paired with the interrupt the
 * turn's `end` carried: the view keeps no interrupt of its own, so it is read off the `end` event
 * as it passes, just before that event's view.
 */
export function shownState(): OperatorFunction<TurnEvent | TurnErrorEvent, Shown> {
  return (events: Observable<TurnEvent | TurnErrorEvent>) =>
    defer(() => {
      let interrupt: Interrupt | undefined;
      return events.pipe(
        tap((event) => {
          if (event.type === 'end') interrupt = event.interrupt;
        }),
        turnState(),
        map((view): Shown => (interrupt === undefined ? { view } : { view, interrupt })),
      );
    });
}

/** The sentence a page shows for an answer refused because its question was answered already. */
export const ANSWERED_ALREADY = 'This question was answered already.';

/**
 * Whether `view` is an answer refused because its question was answered already: a `conflict` error
 * (A2A 1.1's generation mismatch, from the agent, or the client's own check that the task moved on
 * or finished before anything was sent). Nothing of it reached the task.
 */
export function answeredAlready(view: TurnView | undefined): boolean {
  return view?.phase === 'error' && view.error?.kind === 'conflict';
}
