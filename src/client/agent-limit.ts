import { asyncScheduler, Observable, type SchedulerLike, type Subscription } from 'rxjs';
import { A2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import type { ResolvedLimits } from './agent-limit-option.js';
import { LimitedTurn, type LimitedRun } from './agent-limit-turn.js';

/** The window of the rate: one second. */
const SECOND_MS = 1_000;

/**
 * The turns of one agent (its card URL) under its bounds: those running (counted from their start
 * until they end, error, or are left and their cancel is answered), those waiting in order (FIFO),
 * and the times of the latest starts. A turn starts at once when nothing waits and the agent has
 * room; otherwise it waits (its `queued` events say its place), or fails with a `queue-full` error
 * when `maxQueued` wait already. Time is the scheduler's (`asyncScheduler`: virtual in marble tests).
 */
export class AgentLimit {
  /** Turns started and not yet let go (running, or left with their cancel still in flight). */
  private running = 0;
  private readonly waiting: LimitedTurn[] = [];
  /** The latest starts' times, a ring of `maxStartsPerSecond` (none without a rate). */
  private readonly starts: number[] = [];
  private oldest = 0;
  /** The pump's one timer, set while the rate alone holds the queue back. */
  private timer: Subscription | undefined;
  private pumping = false;
  private again = false;
  /** Set by `close`: the waiting turns are not started any more (the client is ending them). */
  private closed = false;

  constructor(
    private readonly limits: ResolvedLimits,
    /** The agent as errors name it (its card URL, query redacted). */
    private readonly agent: string,
    private readonly scheduler: SchedulerLike = asyncScheduler,
  ) {}

  /** `run` (the turn, cold) when this agent has room: a cold Observable, its `queued` events first while it waits. */
  gate(run: LimitedRun): Observable<TurnEvent> {
    return new Observable<TurnEvent>((subscriber) => {
      const turn = new LimitedTurn(subscriber, run, this.scheduler, this.let);
      this.arrive(turn);
      return turn;
    });
  }

  /** Starts no waiting turn from now on: the client closes, and ends them as they are (unsent). */
  close(): void {
    this.closed = true;
    this.timer?.unsubscribe();
    this.timer = undefined;
  }

  /** Nothing runs or waits here, and no start counts against the rate any more: the limit can be dropped. */
  idle(): boolean {
    if (this.running > 0 || this.waiting.length > 0) return false;
    const latest = this.starts.length === 0 ? undefined : this.starts[(this.oldest + this.starts.length - 1) % this.starts.length];
    return latest === undefined || this.scheduler.now() - latest >= SECOND_MS;
  }

  private arrive(turn: LimitedTurn): void {
    if (this.waiting.length === 0 && this.delay() === 0) return this.begin(turn);
    if (this.waiting.length >= this.limits.maxQueued) return turn.refuse(this.full());
    this.waiting.push(turn);
    turn.tell(this.waiting.length);
    this.arm();
  }

  /** Told by a turn: it left the queue (`started` false) or was let go after running. */
  private readonly let = (turn: LimitedTurn, started: boolean): void => {
    if (started) {
      this.running--;
      this.pump();
      return;
    }
    const index = this.waiting.indexOf(turn);
    if (index < 0) return;
    this.waiting.splice(index, 1);
    // The rate's timer, when set, stays right: it waits on the starts, not on who is first.
    this.renumber(index);
  };

  /** 0 when a turn may start now; else how long until the rate allows one (`Infinity`: the in-flight bound holds). */
  private delay(): number {
    if (this.running >= this.limits.maxInFlight) return Infinity;
    if (this.starts.length < this.limits.maxStartsPerSecond) return 0;
    return Math.max(0, this.starts[this.oldest]! + SECOND_MS - this.scheduler.now());
  }

  private begin(turn: LimitedTurn): void {
    this.running++;
    if (this.limits.maxStartsPerSecond !== Infinity) this.took(this.scheduler.now());
    turn.run();
  }

  /** A start at `now` in the rate's ring (the oldest replaced once it is full). */
  private took(now: number): void {
    if (this.starts.length < this.limits.maxStartsPerSecond) this.starts.push(now);
    else {
      this.starts[this.oldest] = now;
      this.oldest = (this.oldest + 1) % this.starts.length;
    }
  }

  /** Starts the waiting turns in order while the agent has room; re-entered (a turn that ends as it starts), it loops. */
  private pump(): void {
    if (this.closed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    const before = this.waiting.length;
    try {
      do {
        this.again = false;
        while (this.waiting.length > 0 && this.delay() === 0) this.begin(this.waiting.shift()!);
      } while (this.again);
    } finally {
      this.pumping = false;
    }
    if (this.waiting.length !== before) this.renumber(0);
    this.arm();
  }

  /** Sets the pump's timer for when the rate allows the head of the queue to start (only the rate can: a finite delay). */
  private arm(): void {
    if (this.timer !== undefined || this.waiting.length === 0) return;
    const delay = this.delay();
    if (delay === Infinity) return;
    this.timer = this.scheduler.schedule(() => {
      this.timer = undefined;
      this.pump();
    }, delay);
  }

  /** Tells each waiting turn from `from` on its place when it moved. */
  private renumber(from: number): void {
    for (let index = from; index < this.waiting.length; index++) this.waiting[index]!.tell(index + 1);
  }

  private full(): A2AError {
    return new A2AError({
      kind: 'queue-full',
      operation: 'turn',
      agent: this.agent,
      message: `turn to ${this.agent}: ${this.limits.maxQueued} turns wait for this agent already (agentLimits.maxQueued): this one was not sent`,
    });
  }
}
