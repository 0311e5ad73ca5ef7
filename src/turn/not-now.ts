import { asyncScheduler, Observable, timer, type Observer, type Subscriber, type Subscription } from 'rxjs';
import { isA2AError, retryingAfter, type A2AError, type A2AOperation } from '../errors.js';
import { NOT_NOW_STATUSES } from '../port/codes.js';
import { ForwardingPort } from '../port/forwarding.js';
import type { A2APort, ListTasksOptions, TaskPage, GenerationWait } from '../port/port.js';
import type { CardSummary } from '../port/card.js';
import type { AgentEvent, OutgoingMessage, SendResult, Task } from '../port/types.js';
import { backoffDelay, type TurnPolicy } from './policy.js';

/** gRPC's RESOURCE_EXHAUSTED and UNAVAILABLE: "not now" when the server says when (a `retry-after` in its metadata). */
const GRPC_NOT_NOW: ReadonlySet<number> = new Set([8, 14]);

/**
 * An answer that says the agent did not take the request, and may later: HTTP 429 or 503 (on the
 * card's fetch, or any call), or a gRPC RESOURCE_EXHAUSTED or UNAVAILABLE that named when to come
 * back. An UNAVAILABLE without it is a broken call (a dropped connection): the request may have
 * arrived, so it is not made again here.
 */
export function isNotNow(error: unknown): error is A2AError {
  if (!isA2AError(error, 'http', 'card', 'network', 'protocol')) return false;
  if (error.status !== undefined) return (error.kind === 'http' || error.kind === 'card') && NOT_NOW_STATUSES.has(error.status);
  return error.grpcCode !== undefined && GRPC_NOT_NOW.has(error.grpcCode) && error.retryAfterMs !== undefined;
}

/** What one call's waits are bounded by. */
interface Bounds {
  readonly policy: TurnPolicy;
  readonly random: () => number;
  /** The call's own bound, in milliseconds from its first try. */
  readonly callMs: number;
  /** The turn's deadline (the scheduler's clock), or undefined for a call that outlives the turn (CancelTask). */
  readonly deadline: number | undefined;
}

/**
 * `call`, made again after an answer that says "not now" before any value ({@link isNotNow}): after
 * its `Retry-After`, or the policy's `retryAfter` backoff when it names none. A call that gave a
 * value is never made again. When the tries are used, or the wait would pass `retryAfter.maxWaitMs`
 * (all of this call's waits together), the call's own bound or the turn's deadline, the error goes
 * on carrying when to try again. The waits are timers on RxJS's async scheduler: virtual in marble tests.
 */
export function whenTaken<T>(call: Observable<T>, bounds: Bounds): Observable<T> {
  if (bounds.policy.retryAfter.maxTries === 0) return call;
  return new Observable<T>((subscriber) => new Taken(subscriber, call, bounds).attempt());
}

/** {@link whenTaken}'s tries of one call, its observer and its teardown in one object: methods, not six closures per call. */
class Taken<T> implements Observer<T> {
  private readonly until: number;
  private tries = 0;
  private waited = 0;
  /** The try in flight gave a value: it is never made again. */
  private answered = false;
  private current: Subscription | undefined;
  /** The wait before the next try. */
  private wait: Subscription | undefined;

  constructor(
    private readonly subscriber: Subscriber<T>,
    private readonly call: Observable<T>,
    private readonly bounds: Bounds,
  ) {
    this.until = Math.min(asyncScheduler.now() + bounds.callMs, bounds.deadline ?? Infinity);
  }

  /** One try of the call; returns this object, the subscription's teardown. */
  attempt(): this {
    this.answered = false;
    this.wait = undefined;
    this.current = this.call.subscribe(this);
    return this;
  }

  next(value: T): void {
    this.answered = true;
    this.subscriber.next(value);
  }

  error(error: unknown): void {
    if (this.answered || !isNotNow(error)) return this.subscriber.error(error);
    const { policy, random } = this.bounds;
    const delay = error.retryAfterMs ?? backoffDelay(policy.retryAfter, this.tries + 1, random);
    const late = this.waited + delay > policy.retryAfter.maxWaitMs || asyncScheduler.now() + delay >= this.until;
    if (this.tries >= policy.retryAfter.maxTries || late)
      return this.subscriber.error(error.retryAfterMs === undefined ? retryingAfter(error, delay) : error);
    this.tries++;
    this.waited += delay;
    this.wait = timer(delay).subscribe(() => this.attempt());
  }

  complete(): void {
    this.subscriber.complete();
  }

  unsubscribe(): void {
    this.current?.unsubscribe();
    this.wait?.unsubscribe();
  }
}

/**
 * The port of one turn with every call made again after a "not now" ({@link whenTaken}): each
 * bounded by the turn's `deadline` (on the scheduler's clock) and its own bound in the policy.
 */
export function notNowPort(port: A2APort, policy: TurnPolicy, random: () => number, deadline: number): A2APort {
  return policy.retryAfter.maxTries === 0 ? port : new NotNowPort(port, policy, random, deadline);
}

class NotNowPort extends ForwardingPort {
  constructor(
    inner: A2APort,
    private readonly policy: TurnPolicy,
    private readonly random: () => number,
    private readonly deadline: number,
  ) {
    super(inner);
  }

  override card(): Observable<CardSummary> {
    return this.taken('card', this.inner.card());
  }
  override send(message: OutgoingMessage): Observable<SendResult> {
    return this.taken('send', this.inner.send(message));
  }
  override stream(message: OutgoingMessage): Observable<AgentEvent> {
    return this.taken('stream', this.inner.stream(message));
  }
  override resubscribe(taskId: string): Observable<AgentEvent> {
    return this.taken('resubscribe', this.inner.resubscribe(taskId));
  }
  override getTask(taskId: string, historyLength?: number, wait?: GenerationWait): Observable<Task> {
    return this.taken('get-task', this.inner.getTask(taskId, historyLength, wait));
  }
  override cancel(taskId: string): Observable<Task> {
    return this.taken('cancel', this.inner.cancel(taskId));
  }
  override listTasks(contextId: string, options?: ListTasksOptions): Observable<TaskPage> {
    return this.taken('list-tasks', super.listTasks(contextId, options));
  }

  private taken<T>(operation: A2AOperation, call: Observable<T>): Observable<T> {
    // A CancelTask outlives the turn (it is sent when the turn ends): its own bound alone.
    const deadline = operation === 'cancel' ? undefined : this.deadline;
    return whenTaken(call, { policy: this.policy, random: this.random, callMs: callBound(this.policy, operation), deadline });
  }
}

/** The bound the ladder puts on one call of `operation`: a wait that would pass it is not waited. */
function callBound(policy: TurnPolicy, operation: A2AOperation): number {
  switch (operation) {
    case 'card':
      return policy.cardTimeoutMs;
    case 'send':
      return policy.sendTimeoutMs;
    case 'stream':
    case 'resubscribe':
      return policy.firstEventTimeoutMs;
    case 'cancel':
      return policy.cancelTimeoutMs;
    default:
      return policy.poll.requestTimeoutMs;
  }
}
