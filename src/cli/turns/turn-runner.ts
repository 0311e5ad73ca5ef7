import type { Observable, Subscription } from 'rxjs';
import type { TurnEvent, TurnOutcome } from '../../node/index.js';

/** How one turn ended for the command line. */
export type TurnResult = { outcome: TurnOutcome } | { error: unknown } | { cancelled: true };

/** A running turn: its result, and a cancel that unsubscribes it (the library then sends CancelTask). */
export interface RunningTurn {
  result: Promise<TurnResult>;
  cancel(): void;
}

/** Starts a turn (a client's `turn` or `resume`), handing each event to `show`. */
export function startTurn(turn$: Observable<TurnEvent>, show: (event: TurnEvent) => void): RunningTurn {
  let settle: (result: TurnResult) => void = () => undefined;
  const result = new Promise<TurnResult>((resolve) => (settle = resolve));
  let outcome: TurnOutcome | undefined;
  const subscription: Subscription = turn$.subscribe({
    next: (event) => {
      if (event.type === 'end') outcome = event.outcome;
      show(event);
    },
    error: (error: unknown) => settle({ error }),
    complete: () => settle(outcome ? { outcome } : { error: new Error('the turn ended without an outcome') }),
  });
  return {
    result,
    cancel: () => {
      if (subscription.closed) return;
      subscription.unsubscribe();
      settle({ cancelled: true });
    },
  };
}
