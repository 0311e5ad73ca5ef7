import { Observable, timer, type Subscription } from 'rxjs';
import { A2AError } from '../errors.js';
import type { Logger } from '../logger.js';
import type { TurnEvent } from '../port/events.js';
import type { TurnPolicy } from '../turn/policy.js';
import type { LadderOptions } from '../turn/turn.js';
import { ThreadLanes, type SecondMessage } from './lanes.js';
import { Running } from './running.js';
import type { LeaveMode } from './types.js';

/** The ladder's options as the client sets them for a turn. */
export type Ladder = LadderOptions & { policy: TurnPolicy; logger: Logger };

/**
 * The client's turns while they run: each counted from its subscribe to its end, so `close()` can
 * end them (abandoned, their tasks cancelled; or handed over with `detach`), and, with
 * `onLeave: 'detach'`, told it is detached when its subscriber leaves before its end.
 */
export class TurnsInFlight {
  /** The ladder of every turn: detached while the client hands its turns over. */
  readonly ladder: Ladder;
  /** Each running (or waiting) turn, with its thread's key. */
  private readonly running = new Map<Running, string>();
  private readonly lanes = new ThreadLanes();
  /** Set by `end(true)`: the turns it ends hand their tasks over (no CancelTask). */
  private detaching = false;
  /** Set by `end()`: a turn it ends is abandoned (cancelled) even with `onLeave: 'detach'`, unless it detaches. */
  private closed = false;

  constructor(
    ladder: Omit<Ladder, 'detached'>,
    private readonly secondMessage: SecondMessage = 'parallel',
  ) {
    this.ladder = { ...ladder, detached: () => this.detaching };
  }

  /**
   * `run` after the input is checked (a check's error comes after `start`, as a turn's does), its
   * subscriber counted among the running ones while it runs. One object per turn: the check and
   * the count in one subscribe. With `onLeave: 'detach'` the turn's ladder is told it is detached
   * once its subscriber leaves before its end (not on its own error or completion, so a deadline
   * still cancels). `sends`: the turn sends a message (false for a resume, whose task is known).
   */
  turn(
    input: { onLeave?: LeaveMode },
    sends: boolean,
    check: () => string,
    run: (key: string, turnLadder: Ladder) => Observable<TurnEvent>,
  ): Observable<TurnEvent> {
    return new Observable<TurnEvent>((subscriber) => {
      const running = new Running(subscriber, sends, this.leave);
      let key: string;
      try {
        const turnLadder =
          input.onLeave === 'detach'
            ? { ...this.ladder, detached: () => this.detaching || (running.left && !this.closed && !running.superseded) }
            : this.ladder;
        key = check();
        running.turn$ = run(key, turnLadder);
      } catch (error) {
        subscriber.next({ type: 'start' });
        subscriber.error(error);
        return undefined;
      }
      this.running.set(running, key);
      this.lanes.enter(key, sends ? this.secondMessage : 'parallel', running);
      return running;
    });
  }

  /** Takes a turn that ended out of the running ones and its thread's lane. */
  private readonly leave = (turn: Running): void => {
    const key = this.running.get(turn);
    this.running.delete(turn);
    if (key !== undefined) this.lanes.leave(key, turn);
  };

  /**
   * Ends every turn still running with an `aborted` error: handed over (`detach`: no CancelTask), or
   * abandoned, its task cancelled as any left turn's. Handing over waits, up to `waitMs`, for the
   * agent to name the task of a turn whose message is still on its way (a turn handed over before
   * that could not be resumed by task: its message may or may not have arrived); one not named by
   * then fails with an error that says so. Resolves when every turn has ended.
   */
  end(detach: boolean, waitMs: number): Promise<void> {
    if (detach) this.detaching = true;
    this.closed = true;
    const turns = [...this.running.keys()];
    // A message still waiting in its thread's lane, or in its agent's queue, was never sent: nothing to hand over or wait for.
    const now = turns.filter((turn) => !this.detaching || turn.named || !turn.started || turn.queued);
    for (const turn of now) turn.end(turn.started && !turn.queued ? closedError(this.detaching) : unsentError(turn.started));
    const waiting = turns.filter((turn) => !now.includes(turn));
    return Promise.all(waiting.map((turn) => handOverWhenNamed(turn, waitMs))).then(() => undefined);
  }
}

/** Waits for `turn`'s task to be named (then hands it over), `waitMs` at most (then ends it: its message may not have arrived). */
function handOverWhenNamed(turn: Running, waitMs: number): Promise<void> {
  return new Promise<void>((resolve) => {
    let clock: Subscription | undefined;
    const finish = (error: A2AError): void => {
      turn.whenNamed = undefined;
      turn.end(error);
    };
    turn.whenNamed = () => finish(closedError(true));
    // However the turn ends (handed over here, or by itself: its whole reply came), the wait is over.
    turn.whenEnded = () => {
      clock?.unsubscribe();
      resolve();
    };
    clock = timer(waitMs).subscribe(() =>
      finish(
        new A2AError({
          kind: 'aborted',
          operation: 'turn',
          message: `the client closed to hand its turns over, and the agent had not named this turn's task within ${waitMs} ms: the message may not have arrived; resume the thread by its messageId to find out`,
        }),
      ),
    );
  });
}

function unsentError(queued: boolean): A2AError {
  return new A2AError({
    kind: 'aborted',
    operation: 'turn',
    message: queued
      ? "the client closed while this turn waited in its agent's queue (agentLimits): nothing was sent"
      : "the client closed while this message waited for the thread's reply in progress: it was not sent",
  });
}

function closedError(detaching: boolean): A2AError {
  return new A2AError({
    kind: 'aborted',
    operation: 'turn',
    message: detaching
      ? 'the client closed to hand its turns over: the task goes on at the agent; resume it from another process'
      : 'the client closed while the turn ran: its task was cancelled',
  });
}
