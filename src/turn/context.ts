import { map, Observable, type MonoTypeOperatorFunction, type Observer, type Subscriber, type Subscription } from 'rxjs';
import { isA2AError } from '../errors.js';
import type { Logger } from '../logger.js';
import { ForwardingPort } from '../port/forwarding.js';
import type { A2APort, GenerationWait } from '../port/port.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../port/types.js';
import type { CardSummary } from '../port/card.js';
import type { TurnPolicy } from './policy.js';
import type { TurnTask } from './task.js';
import { Generations } from './generations.js';

/** Everything a rung of the ladder needs, per turn subscription. */
export interface LadderContext {
  readonly port: A2APort;
  readonly policy: TurnPolicy;
  readonly random: () => number;
  readonly logger: Logger;
  /** What the turn knows of the agent's task, current before any rung sees an event. */
  readonly task: TurnTask;
  /** Told of each CancelTask in flight, so a host can wait for it before it exits. */
  readonly onCancel?: (cancel: Subscription) => void;
  /** True while the host hands its turns over: a turn that ends then sends no CancelTask (see `LadderOptions.detached`). */
  readonly detached?: () => boolean;
  /** True while the turn has shown nothing of a reply (no artifact text, no status or message text, no file or data part). */
  readonly nothingShown?: () => boolean;
}

/**
 * The port as one turn sees it: events of another task than the turn's are dropped, and every
 * other agent event is observed by `task` before any rung or the renderer sees it; a TaskNotFound
 * on the turn's own task (resubscribe, GetTask) tells `task` the agent no longer has it.
 *
 * A {@link ForwardingPort}, one per turn: it overrides the calls that bring the task's events.
 */
export function trackedPort(port: A2APort, task: TurnTask): A2APort {
  return new TrackedPort(port, task);
}

class TrackedPort extends ForwardingPort {
  constructor(
    inner: A2APort,
    private readonly task: TurnTask,
  ) {
    super(inner);
  }

  override send(message: OutgoingMessage): Observable<SendResult> {
    return this.inner.send(message).pipe(owned(this.task));
  }
  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.inner.stream(message).pipe(owned(this.task));
  }
  override resubscribe(taskId: string): Observable<AgentEvent> {
    return this.inner.resubscribe(taskId).pipe(owned(this.task, true));
  }
  override getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    // A snapshot is the task's event here: the same checks as a stream's, then back to the task.
    return this.inner.getTask(taskId, historyLength, wait).pipe(
      map((snapshot): AgentEvent => ({ kind: 'task', task: snapshot })),
      owned(this.task, true),
      map((event) => (event as Extract<AgentEvent, { kind: 'task' }>).task),
    );
  }
}

/**
 * Events from elsewhere than the turn's port (the agent's pushes) taken as its port's are: those of
 * another task dropped, a refused one the turn's error, each observed by `task` before it goes on.
 */
export function ownedBy<T extends AgentEvent>(task: TurnTask): MonoTypeOperatorFunction<T> {
  return owned(task);
}

/**
 * The turn's own events, each observed by `task` before it goes on (one hop: this is every event's
 * path); with `disowning`, a TaskNotFound tells `task` the agent no longer has it.
 */
function owned<T extends AgentEvent>(task: TurnTask, disowning = false): MonoTypeOperatorFunction<T> {
  return (events) => new Observable<T>((subscriber) => events.subscribe(new Owned(subscriber, task, disowning)));
}

/** {@link owned}'s observer: methods, not three closures per subscription (every open turn holds one or two). */
class Owned<T extends AgentEvent> implements Observer<T> {
  /** The generation of this subscription's last update, for the repeat check (A2A 1.1). */
  private lastUpdate: number | undefined;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly task: TurnTask,
    private readonly disowning: boolean,
  ) {}

  next(event: T): void {
    const { task } = this;
    if (!task.belongs(event)) return;
    const refusal = task.refusal(event);
    if (refusal !== undefined) return this.subscriber.error(refusal);
    // A2A 1.1: two updates of one stream with one generation say the agent keeps none; one seen already is not shown again.
    const generation = Generations.ofUpdate(event);
    if (generation !== undefined && generation === this.lastUpdate) task.generations.repeated();
    this.lastUpdate = event.kind === 'task' ? undefined : (generation ?? this.lastUpdate);
    if (task.generations.stale(event)) return;
    task.observe(event);
    this.subscriber.next(event);
  }

  error(error: unknown): void {
    if (this.disowning) disowned(this.task, error);
    this.subscriber.error(error);
  }

  complete(): void {
    this.subscriber.complete();
  }
}

function disowned(task: TurnTask, error: unknown): void {
  if (isA2AError(error, 'task-not-found')) task.disown();
}
