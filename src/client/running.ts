import type { Observable, Observer, Subscriber, Subscription } from 'rxjs';
import { A2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import type { LaneEntry } from './lanes.js';

/**
 * One running (or waiting) turn of the client, as `close()` and its thread's lane see it: its
 * subscriber's observer of the ladder's events and its teardown in one object (methods, not the
 * eight closures a turn had).
 */
export class Running implements LaneEntry, Observer<TurnEvent> {
  /** The turn runs (a message waiting in its thread's lane does not yet). */
  started = false;
  /** The agent named the turn's task (a `task` event passed), or the turn sends nothing (a resume): it can be handed over. */
  named: boolean;
  /** Set while a closing client waits for this turn's task to be named: hands it over then. */
  whenNamed?: () => void;
  /** Set while a closing client waits for this turn: told when it ended, however. */
  whenEnded?: () => void;
  /** The turn waits in its agent's queue (`agentLimits`): its latest event is `queued`; nothing was sent. */
  queued = false;
  /** The subscriber left before the turn ended (only read for `onLeave: 'detach'`). */
  left = false;
  /** A newer message of the thread ended this turn: its task is cancelled, whatever `onLeave` says. */
  superseded = false;
  /** The ladder this turn runs, once its input is checked. */
  turn$: Observable<TurnEvent> | undefined;
  private ended = false;
  private subscription: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<TurnEvent>,
    sends: boolean,
    /** Takes the turn out of the client's running turns and its thread's lane. */
    private readonly leave: (turn: Running) => void,
  ) {
    this.named = !sends;
  }

  /** Ends the turn now with `error` (its subscriber's error: the ladder is left). */
  end(error: A2AError): void {
    this.subscriber.error(error);
  }

  start(): void {
    this.started = true;
    this.subscription = this.turn$!.subscribe(this);
  }

  supersede(): void {
    this.superseded = true;
    this.subscriber.error(supersededError());
  }

  /** The turn's events to its subscriber, noting when the agent names the task (and handing over then, if waited for). */
  next(event: TurnEvent): void {
    this.queued = event.type === 'queued';
    this.subscriber.next(event);
    if (!this.named && event.type === 'task') {
      this.named = true;
      this.whenNamed?.();
    }
  }

  error(error: unknown): void {
    this.ended = true;
    this.subscriber.error(error);
  }

  complete(): void {
    this.ended = true;
    this.subscriber.complete();
  }

  /** The subscription's teardown. */
  unsubscribe(): void {
    this.leave(this);
    this.left = !this.ended;
    this.subscription?.unsubscribe();
    this.whenEnded?.();
  }
}

function supersededError(): A2AError {
  return new A2AError({
    kind: 'aborted',
    operation: 'turn',
    message: "the thread's next message superseded this turn: its task was cancelled",
  });
}
