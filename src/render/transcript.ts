import { concatMap, map, scan, startWith, type Observable, type OperatorFunction } from 'rxjs';
import type { TurnErrorEvent, TurnEvent } from '../port/events.js';
import { coalesceBy, type CoalesceOptions } from './coalesce.js';
import { catchTurnError, initialTurnView, reduceTurn, type TurnView } from './view.js';

/** One exchange of a thread: what the user said and the turn's view. */
export interface TranscriptTurn {
  /** The user's message. */
  user: string;
  /** The turn's view, as {@link turnState} folds it. */
  view: TurnView;
}

/** A thread as a UI shows it: every exchange so far, the running one last. */
export interface Transcript {
  /** Every exchange so far, in order. */
  turns: readonly TranscriptTurn[];
  /** A turn is running. */
  busy: boolean;
}

/** The transcript before the first message. */
export const emptyTranscript: Transcript = { turns: [], busy: false };

/** The pure fold behind {@link threadTranscript}: turn number `index` (from 0) of message `user` saw `event`. */
export function reduceTranscript(transcript: Transcript, index: number, user: string, event: TurnEvent | TurnErrorEvent): Transcript {
  const turns = [...transcript.turns];
  const current = turns[index] ?? { user, view: initialTurnView };
  const view = reduceTurn(current.view, event);
  turns[index] = { user, view };
  return { turns, busy: view.phase === 'running' };
}

/**
 * Folds a thread's messages into a transcript: each message runs as a turn (via `run`) after the
 * previous one ended, and every event of every turn yields the next transcript. A turn's error
 * becomes that exchange's `error` view and the thread goes on. With `coalesceMs` (e.g. 50) a
 * running turn yields at most one transcript per window; its first and its last at once (see
 * `coalesceViews`).
 *
 * ```ts
 * messages$.pipe(threadTranscript((text) => a2a.turn({ agent, handle, thread, text }), { coalesceMs: 50 }))
 *   .subscribe((transcript) => store.set(transcript));
 * ```
 */
export function threadTranscript(
  run: (text: string) => Observable<TurnEvent>,
  options: CoalesceOptions = {},
): OperatorFunction<string, Transcript> {
  const coalesce = coalesceBy(options, (transcript: Transcript) => !transcript.busy);
  return (messages) =>
    messages.pipe(
      concatMap((user, index) =>
        run(user).pipe(
          catchTurnError(),
          map((event) => ({ user, index, event })),
        ),
      ),
      scan((transcript, { user, index, event }) => reduceTranscript(transcript, index, user, event), emptyTranscript),
      startWith(emptyTranscript),
      coalesce,
    );
}
