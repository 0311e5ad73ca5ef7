import { catchError, concat, defer, filter, finalize, map, Observable, of, Subscription, switchMap, timer } from 'rxjs';
import { toA2AError } from '../../errors.js';
import { Held } from '../../rx/held.js';
import type { CardSummary } from '../../port/card.js';
import type { LadderNote, PushNoteEvent } from '../../port/events.js';
import type { PushDelivery, PushSource } from '../../port/push.js';
import { pushConfigsOf } from '../../port/push-configs.js';
import type { AgentEvent, OutgoingMessage } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { within } from '../within.js';
import { sendBlocking } from './send.js';
import { followPushes, readThenFollow } from './push-follow.js';

type LadderSignal = AgentEvent | LadderNote;

/** Pushes a turn holds before it reads them (the agent may post before the send answers): past it, the oldest go. */
const MAX_HELD = 1024;

/**
 * What the push option asks of a turn to this agent: `'now'` (its message asks for pushes), a delay
 * in ms (after it, a running task is handed over to pushes), or undefined (no push). A message asks
 * only with a contextId: the credential names the thread.
 */
export function pushPlan(delivery: PushDelivery | undefined, card: CardSummary, contextId: string | undefined): 'now' | number | undefined {
  if (delivery === undefined) return undefined;
  const when = delivery.when ?? 'offered';
  if (typeof when === 'object') return when.afterMs;
  if (contextId === undefined || contextId === '') return undefined;
  return when === 'always' || card.pushNotifications === true ? 'now' : undefined;
}

/**
 * The message sent asking for pushes: one `SendMessage` that returns at once with the task
 * (`returnImmediately`) and the receiver's target as its push config, then the task followed by
 * the agent's posts ({@link followPushes}). The thread's pushes are listened to before the message
 * goes, so none posted before the answer is lost.
 */
export function pushedSend(
  ctx: LadderContext,
  message: OutgoingMessage & { contextId: string },
  delivery: PushDelivery,
  streaming: boolean,
): Observable<LadderSignal> {
  return defer(() => {
    const held = new Held(delivery.source.events(message.contextId), MAX_HELD);
    return delivery.source.target(message.contextId).pipe(
      switchMap((target) =>
        concat(
          of<LadderNote>({ type: 'push', step: 'asked' }),
          sendBlocking(ctx, { ...message, push: target, returnImmediately: true }, (taskId, answer) =>
            followPushes(ctx, taskId, held, delivery, streaming, answer.kind === 'task' ? answer.task : undefined),
          ),
        ),
      ),
      finalize(() => held.release()),
    );
  });
}

/**
 * `live$` (the stream, or the blocking send, and the ladder behind it), handed over to pushes once it
 * has run `afterMs` with its task unsettled: a push config is created on the task, then the stream is
 * let go and the task followed by push. A refused config leaves `live$` running, as it was.
 */
export function handOff(
  ctx: LadderContext,
  live$: Observable<LadderSignal>,
  delivery: PushDelivery,
  afterMs: number,
  streaming: boolean,
): Observable<LadderSignal> {
  return new Observable<LadderSignal>((subscriber) => {
    const turn = new Subscription();
    let held: Held<AgentEvent> | undefined;
    // Its own observer: unsubscribing `live` at the hand-over must not end the turn's subscriber.
    const live = live$.subscribe({
      next: (signal) => subscriber.next(signal),
      error: (error: unknown) => subscriber.error(error),
      complete: () => subscriber.complete(),
    });
    turn.add(live);
    turn.add(() => held?.release());
    const clock = timer(afterMs).pipe(
      filter(() => canHandOff(ctx)),
      switchMap(() => {
        const { taskId, contextId } = ctx.task as { taskId: string; contextId: string };
        held = new Held(delivery.source.events(contextId), MAX_HELD);
        return register(ctx, delivery.source, taskId, contextId);
      }),
    );
    turn.add(
      clock.subscribe((note) => {
        if (note.step !== 'handed-off') {
          held?.release();
          held = undefined;
          subscriber.next(note);
          return;
        }
        live.unsubscribe();
        subscriber.next(note);
        turn.add(readThenFollow(ctx, note.taskId!, held!, delivery, streaming, true).subscribe(subscriber));
      }),
    );
    return turn;
  });
}

/**
 * A resumed task followed by push from the start: its push config created, one `GetTask` (what was
 * said already), then the agent's posts. A refused config follows it as `live$` does (resubscribe or
 * poll).
 */
export function pushedResume(
  ctx: LadderContext,
  live$: Observable<LadderSignal>,
  delivery: PushDelivery,
  streaming: boolean,
): Observable<LadderSignal> {
  return defer(() => {
    const { taskId, contextId } = ctx.task;
    if (taskId === undefined || contextId === undefined || contextId === '') return live$;
    const held = new Held(delivery.source.events(contextId), MAX_HELD);
    return register(ctx, delivery.source, taskId, contextId).pipe(
      switchMap((note) =>
        note.step === 'handed-off'
          ? concat(of(note), readThenFollow(ctx, taskId, held, delivery, streaming, false))
          : concat(of(note), live$),
      ),
      finalize(() => held.release()),
    );
  });
}

/** The task is known, of a known thread, and still running: it can be handed over. */
function canHandOff(ctx: LadderContext): boolean {
  const { task } = ctx;
  return task.taskId !== undefined && task.contextId !== undefined && task.contextId !== '' && !task.settled && !task.messageOnly;
}

/** The receiver's target set on the task as a push config: `handed-off` once the agent took it, `refused` otherwise. */
function register(ctx: LadderContext, source: PushSource, taskId: string, contextId: string): Observable<PushNoteEvent> {
  return source.target(contextId).pipe(
    switchMap((target) =>
      pushConfigsOf(ctx.port).createPushConfig({
        id: target.id,
        taskId,
        url: target.url,
        token: target.token,
        authentication: { scheme: 'Bearer', credentials: target.token },
      }),
    ),
    within(ctx.policy.poll.requestTimeoutMs, 'poll-request', 'push-config'),
    map((): PushNoteEvent => ({ type: 'push', step: 'handed-off', taskId })),
    catchError((error: unknown) => of<PushNoteEvent>({ type: 'push', step: 'refused', taskId, cause: toA2AError(error, 'push-config') })),
  );
}
