import {
  asyncScheduler,
  catchError,
  filter,
  concat,
  concatWith,
  defer,
  EMPTY,
  ignoreElements,
  map,
  Observable,
  of,
  tap,
  throwError,
  timer,
  type MonoTypeOperatorFunction,
} from 'rxjs';
import { A2AError, isA2AError, timeoutError, toA2AError } from '../../errors.js';
import { followedBy } from '../../rx/followed-by.js';
import { isInterrupted, type AgentEvent, type OutgoingMessage, type Task } from '../../port/types.js';
import { cancelWhenNamed } from './cancel.js';
import { UntilStreamDone } from './stream-done.js';
import type { LadderContext } from '../context.js';
import type { LadderNote } from '../../port/events.js';
import { backoffDelay } from '../policy.js';
import { pollUntilSettled } from './poll.js';
import { sendAgain, sendBlocking, streamRefused } from './send.js';
import { watchdog, type Budget } from '../../rx/watchdog.js';
import { within } from '../within.js';

type LadderSignal = AgentEvent | LadderNote;

/**
 * The streaming rung: `SendStreamingMessage`, then, when the stream breaks after the task is known,
 * resubscribe with backoff (never re-send), then poll. A stream refused before any event falls back
 * to one blocking send ({@link streamRefused}).
 */
export function streamTurn(ctx: LadderContext, message: OutgoingMessage): Observable<LadderSignal> {
  return listen(ctx, ctx.port.stream(message).pipe(cancelWhenNamed(ctx, message)), 'stream', message.taskId !== undefined).pipe(
    catchError((error: unknown) => {
      const again = sendAgain(ctx, message, error);
      if (again) return concat(of<LadderNote>(again.note), streamTurn(ctx, again.message));
      if (streamRefused(ctx, error)) {
        return concat(of<LadderNote>({ type: 'fallback', from: 'stream', to: 'send', cause: error }), sendBlocking(ctx, message));
      }
      return recover(ctx, error, 1, asyncScheduler.now());
    }),
    followedBy(() => reconcile(ctx)),
  );
}

/**
 * Follows a task the turn did not start (a resumed one): `SubscribeToTask` at once, then the same
 * rules as after a break (reconnect with backoff, then poll; a refused resubscribe polls), and the
 * same reconcile before the end. The task's snapshot brings what was already said.
 */
export function followTask(ctx: LadderContext, taskId: string): Observable<LadderSignal> {
  return listen(ctx, defer(() => ctx.port.resubscribe(taskId)).pipe(opensWithSnapshot(ctx)), 'resubscribe').pipe(
    // A task the agent does not know is the turn's error at once: there is nothing to poll.
    catchError((error: unknown) =>
      isA2AError(error, 'task-not-found') ? throwError(() => error) : recover(ctx, error, 1, asyncScheduler.now()),
    ),
    followedBy(() => reconcile(ctx)),
  );
}

/**
 * After a resubscription that opened without a task snapshot, or an update that skipped a generation
 * (A2A 1.1), one `GetTask` before the end: the task's artifacts replace what the live events gave, so
 * chunks sent during the break, or skipped, are not lost.
 * Best effort: a failed or artifact-less answer leaves the reply the live events gave.
 */
function reconcile(ctx: LadderContext): Observable<LadderSignal> {
  const { taskId, gapReason, unknownToAgent } = ctx.task;
  if (gapReason === undefined || taskId === undefined || unknownToAgent) return EMPTY;
  const snapshot$ = pollOnce(ctx, taskId).pipe(
    // An answer without artifacts says nothing about the reply: it must not erase the live one.
    filter((event) => event.kind === 'task' && event.task.artifacts.length > 0),
    // Best effort: the live events already settled the task; a failed check leaves their reply.
    catchError((error: unknown) => {
      ctx.logger.warn(
        { taskId, error: toA2AError(error, 'get-task').message },
        'could not check the reply after a resubscribe without snapshot',
      );
      return EMPTY;
    }),
  );
  return concat(of<LadderNote>({ type: 'reconcile', taskId, reason: gapReason }), snapshot$);
}

/** Marks a gap when a resubscription's first event is not the task snapshot it should open with. */
function opensWithSnapshot(ctx: LadderContext): MonoTypeOperatorFunction<AgentEvent> {
  return (events) =>
    defer(() => {
      let first = true;
      return events.pipe(
        tap((event) => {
          if (first && event.kind !== 'task') ctx.task.markGap();
          first = false;
        }),
      );
    });
}

/**
 * One live stream (the first send or a resubscribe), bounded by the first-event and idle clocks.
 * It ends when the task is terminal or input-required (closing the stream ourselves). While the
 * task is AUTH_REQUIRED the idle clock gives way to the auth-wait clock. A clean close before the
 * task settled is a break, except during the auth wait, where one `GetTask` tells what happened.
 */
function listen(
  ctx: LadderContext,
  events$: Observable<AgentEvent>,
  operation: 'stream' | 'resubscribe',
  followUp = false,
): Observable<AgentEvent> {
  const { policy, task } = ctx;
  return defer(() => {
    let seen = false;
    let waitingForAuth = false;
    const budget = (event: AgentEvent): Budget => {
      // A sign of life restarts the clock that runs (first event, idle) and pauses no auth wait.
      if (event.kind === 'alive') return waitingForAuth ? 'keep' : seen ? policy.idleTimeoutMs : policy.firstEventTimeoutMs;
      seen = true;
      const wasWaiting = waitingForAuth;
      waitingForAuth = task.state === 'auth-required';
      if (!waitingForAuth) return policy.idleTimeoutMs;
      return wasWaiting ? 'keep' : policy.authWaitMs;
    };
    const expired = () =>
      waitingForAuth
        ? timeoutError('auth-wait', policy.authWaitMs, operation)
        : seen
          ? timeoutError('idle', policy.idleTimeoutMs, operation)
          : timeoutError('first-event', policy.firstEventTimeoutMs, operation);
    return events$.pipe(watchdog({ first: policy.firstEventTimeoutMs, each: budget, expired }), untilStreamDone(ctx, operation, followUp));
  });
}

/**
 * `filter(not alive)`, `takeWhile(not done, inclusive)` and `concatWith(closedEarly unless done)` in
 * one hop, the path of every streamed event: a sign of life has kept the watchdog's clock going and
 * goes no further; the status that finishes the stream is followed by what the response still
 * carries (see {@link UntilStreamDone}); a close before it is a break.
 *
 * The opening snapshot of a follow-up's stream is not the task's last word when it shows the task
 * interrupted: an agent on `@a2a-js/sdk` 1.x opens the stream of a message that continues a task
 * with the task as it was, still input-required with the old question, before it works on the
 * answer. Only a later event ends that stream; a close right after the snapshot ends the turn in
 * that state, as any close in it would. A resubscription's snapshot is the task as it is now: an
 * interrupted one is its last word (an SDK 1.x server may hold that stream open).
 */
function untilStreamDone(ctx: LadderContext, operation: 'stream' | 'resubscribe', followUp: boolean): MonoTypeOperatorFunction<AgentEvent> {
  return (events) =>
    new Observable<AgentEvent>((subscriber) => {
      const done = new UntilStreamDone(subscriber, ctx, operation, followUp, opensInterrupted, closedEarly);
      subscriber.add(done);
      return events.subscribe(done);
    });
}

/** A task snapshot in an interrupted state: as a stream's first event, the task as it was before this message. */
function opensInterrupted(event: AgentEvent): boolean {
  return event.kind === 'task' && isInterrupted(event.task.status.state);
}

/** The server closed the stream before the task settled. */
function closedEarly(ctx: LadderContext, operation: 'stream' | 'resubscribe'): Observable<AgentEvent> {
  const { taskId, state } = ctx.task;
  if (taskId !== undefined && state === 'auth-required') {
    // Some servers close at AUTH_REQUIRED: ask once whether the agent resumed.
    return pollOnce(ctx, taskId).pipe(concatWith(defer(() => (ctx.task.settled ? EMPTY : throwError(() => streamClosed(operation))))));
  }
  return throwError(() => streamClosed(operation));
}

/** One `GetTask` of the turn's task (with `historyLength` messages of history when given), bounded like a poll. */
export function pollOnce(ctx: LadderContext, taskId: string, historyLength?: number): Observable<AgentEvent> {
  return defer(() => ctx.port.getTask(taskId, historyLength)).pipe(
    within<Task>(ctx.policy.poll.requestTimeoutMs, 'poll-request', 'get-task'),
    map((task): AgentEvent => ({ kind: 'task', task })),
  );
}

function streamClosed(operation: 'stream' | 'resubscribe'): A2AError {
  return new A2AError({
    kind: 'stream-closed',
    operation,
    message: 'the stream ended before the task reached a terminal or interrupted state',
  });
}

/**
 * After a break: resubscribe with backoff while attempts and time allow, then poll. An attempt
 * that delivered events resets the count. The user's message is never sent again.
 */
function recover(ctx: LadderContext, error: unknown, attempt: number, since: number): Observable<LadderSignal> {
  const cause = toA2AError(error);
  if (cause.kind === 'timeout' && cause.phase === 'auth-wait') return EMPTY; // outcome: auth-required
  const taskId = ctx.task.taskId;
  if (taskId === undefined || ctx.task.streamDone) return throwError(() => cause);
  const { reconnect } = ctx.policy;
  // The server answered with a lasting error of its own (a code, a status) rather than a broken
  // stream: it will not stream this task to us, but it may still tell its state.
  const declined = !cause.retryable && (cause.code !== undefined || cause.status !== undefined);
  const refused = cause.kind === 'unsupported' || cause.kind === 'task-not-found' || declined;
  const exhausted = attempt > reconnect.maxAttempts || asyncScheduler.now() - since > reconnect.maxElapsedMs;
  if (refused || exhausted) {
    return concat(of<LadderNote>({ type: 'polling', reason: 'resubscribe-failed', cause }), pollUntilSettled(ctx, taskId, false));
  }
  if (!cause.retryable) return throwError(() => cause);
  const delayMs = backoffDelay(reconnect, attempt, ctx.random);
  return defer(() => {
    const before = ctx.task.events;
    return concat(
      of<LadderNote>({ type: 'reconnecting', attempt, delayMs, cause }),
      timer(delayMs).pipe(ignoreElements()),
      listen(ctx, defer(() => ctx.port.resubscribe(taskId)).pipe(opensWithSnapshot(ctx)), 'resubscribe'),
    ).pipe(
      catchError((next: unknown) => {
        // The snapshot that opens every resubscription is not progress: only events after it are.
        const progressed = ctx.task.events > before + 1;
        return recover(ctx, next, progressed ? 1 : attempt + 1, progressed ? asyncScheduler.now() : since);
      }),
    );
  });
}
