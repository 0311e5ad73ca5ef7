import type { Observable, Subscription } from 'rxjs';
import type { TurnEvent, TurnOutcome } from '../../node/index.js';
import { onOutClosed, type Io } from '../core/io.js';

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

/** What {@link watchTurn} saw: whether stdout's reader went away; `stop` takes its listeners off. */
export interface TurnWatch {
  readonly outClosed: () => boolean;
  stop(): void;
}

/**
 * While a one-shot turn runs (send, resume): Ctrl-C or SIGTERM cancels it (the library then sends
 * CancelTask), and so does a closed stdout (`a4h send … | head -1`), which the command then ends
 * quietly. `stop` takes the listeners off once the turn is reported.
 */
export function watchTurn(io: Io, turn: RunningTurn): TurnWatch {
  const interrupt = (): void => turn.cancel();
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  let closed = false;
  const stopWatching = onOutClosed(io, () => {
    closed = true;
    turn.cancel();
  });
  return {
    outClosed: () => closed,
    stop() {
      process.off('SIGINT', interrupt);
      process.off('SIGTERM', interrupt);
      stopWatching();
    },
  };
}
