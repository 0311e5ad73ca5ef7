import {
  catchError,
  concat,
  defer,
  EMPTY,
  exhaustMap,
  filter,
  finalize,
  map,
  merge,
  Observable,
  of,
  repeat,
  Subscription,
  switchMap,
  takeWhile,
  tap,
  throwError,
  timer,
} from 'rxjs';
import { isA2AError, toA2AError } from '../../errors.js';
import { Held } from '../../rx/held.js';
import type { CardSummary } from '../../port/card.js';
import type { LadderNote, PushNoteEvent } from '../../port/events.js';
import type { PushDelivery, PushSource } from '../../port/push.js';
import { pushConfigsOf } from '../../port/push-configs.js';
import type { AgentEvent, OutgoingMessage, Part, Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { ownedBy } from '../context.js';
import { within } from '../within.js';
import { pollUntilSettled, REQUEST_HISTORY } from './poll.js';
import { followTask, pollOnce } from './live.js';
import { sendBlocking } from './send.js';

type LadderSignal = AgentEvent | LadderNote;

/** Pushes a turn holds before it reads them (the agent may post before the send answers): past it, the oldest go. */
const MAX_HELD = 1024;

/** How often a turn waiting for pushes checks its task itself, by default. */
export const DEFAULT_PUSH_CHECK_MS = 60_000;

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

/**
 * The task read once (what was said before the pushes were asked for), then followed by push. What was
 * pushed before the read went the read brings (it is forgotten); what came while it was on its way
 * and the read shows already is left out ({@link coveredBy}). `lenient`: a failed read is let pass
 * (a hand-over: the stream showed the task), else it is the turn's error (a resume: nothing was shown).
 */
function readThenFollow(
  ctx: LadderContext,
  taskId: string,
  held: Held<AgentEvent>,
  delivery: PushDelivery,
  streaming: boolean,
  lenient: boolean,
): Observable<LadderSignal> {
  return defer(() => {
    held.clear();
    let snapshot: Task | undefined;
    const read$ = pollOnce(ctx, taskId, ctx.task.wantsRequest ? REQUEST_HISTORY : undefined).pipe(
      tap((event) => (snapshot = event.kind === 'task' ? event.task : undefined)),
    );
    return concat(
      lenient ? read$.pipe(catchError(() => EMPTY)) : read$,
      defer(() => followPushes(ctx, taskId, held, delivery, streaming, snapshot)),
    );
  });
}

/**
 * How many of the held pushes, oldest first, `snapshot` (read while they came) shows already: the
 * longest run from the oldest whose artifact chunks, joined per artifact, end that artifact's text in
 * the snapshot (the statuses among them are the snapshot's too). Exact unless the text repeats itself
 * just there; the end's read corrects that.
 */
export function coveredBy(snapshot: Task, held: readonly AgentEvent[]): number {
  const texts = new Map(snapshot.artifacts.map((artifact) => [artifact.artifactId, partsText(artifact.parts)]));
  const joined = new Map<string, string>();
  let covered = 0;
  for (const [index, event] of held.entries()) {
    if (event.kind !== 'artifact') continue;
    const id = event.artifact.artifactId;
    joined.set(id, (event.append ? (joined.get(id) ?? '') : '') + partsText(event.artifact.parts));
    // The chunks up to here are the snapshot's when, for each artifact, what they make ends its text.
    let shown = true;
    for (const [artifact, text] of joined) if (text === '' || !(texts.get(artifact) ?? '').endsWith(text)) shown = false;
    if (shown) covered = index + 1;
  }
  return covered;
}

function partsText(parts: readonly Part[]): string {
  let text = '';
  for (const part of parts) if (part.kind === 'text') text += part.text;
  return text;
}

/**
 * A task followed by the agent's posts until it settles: the held pushes, then each as it comes
 * (events of another task are dropped, as the turn's port drops them), and a `GetTask` every
 * `checkEveryMs` whose status heals a lost push (a task found settled ends the turn). A task that moved at two checks running with no push between
 * them sends the turn back to the ladder (resubscribe on a streaming agent, else poll). Once settled,
 * one `GetTask` more: its artifacts are the reply, since a chunk may have come twice or not at all.
 */
export function followPushes(
  ctx: LadderContext,
  taskId: string,
  held: Held<AgentEvent>,
  delivery: PushDelivery,
  streaming: boolean,
  snapshot?: Task,
): Observable<LadderSignal> {
  return defer(() => {
    if (ctx.task.settled) return EMPTY; // the snapshot that opened the follow settled it
    if (snapshot !== undefined) held.drop(coveredBy(snapshot, held.pending));
    let pushedSinceCheck = false;
    let misses = 0;
    let known = fingerprint(ctx);
    const pushes$ = held.values$.pipe(
      ownedBy(ctx.task),
      map((event) => {
        pushedSinceCheck = true;
        misses = 0;
        known = fingerprint(ctx);
        return event;
      }),
    );
    const every = delivery.checkEveryMs ?? DEFAULT_PUSH_CHECK_MS;
    // Each check 80–120% of the period after the last: turns started together do not all ask together.
    const checks$ = defer(() => timer(every * (0.8 + 0.4 * ctx.random()))).pipe(
      repeat(),
      exhaustMap(() =>
        pollOnce(ctx, taskId).pipe(catchError((error: unknown) => (isA2AError(error, 'task-not-found') ? throwError(() => error) : EMPTY))),
      ),
      // Only the check's status goes on: its artifacts may hold a chunk whose push is still on its way,
      // which would then show twice. The reply is read whole once the task settles.
      map((event): AgentEvent => (event.kind === 'task' ? { kind: 'status', taskId, status: event.task.status } : event)),
      map((event) => {
        const now = fingerprint(ctx);
        misses = now !== known && !pushedSinceCheck ? misses + 1 : 0;
        known = now;
        pushedSinceCheck = false;
        return event;
      }),
    );
    let missed = false;
    const followed$ = merge(pushes$, checks$).pipe(
      takeWhile(() => {
        missed = misses >= 2 && !ctx.task.settled;
        return !ctx.task.settled && !missed;
      }, true),
    );
    return concat(
      followed$,
      defer((): Observable<LadderSignal> => {
        if (missed) return concat(of<LadderNote>({ type: 'push', step: 'missed', taskId }), backToLadder(ctx, taskId, streaming));
        return concat(
          of<LadderNote>({ type: 'reconcile', taskId, reason: 'pushed' }),
          pollOnce(ctx, taskId).pipe(
            filter((event) => event.kind === 'task' && event.task.artifacts.length > 0),
            catchError(() => EMPTY),
          ),
        );
      }),
    );
  });
}

/** Where the task stands, as far as a push or a check would change it: its state and its status's time. */
function fingerprint(ctx: LadderContext): string {
  return `${ctx.task.state ?? ''}\n${ctx.task.statusTime ?? ''}`;
}

/** Pushes stopped: the task followed as a resumed one is (resubscribe with backoff on a streaming agent, then poll). */
function backToLadder(ctx: LadderContext, taskId: string, streaming: boolean): Observable<LadderSignal> {
  return streaming ? followTask(ctx, taskId) : pollUntilSettled(ctx, taskId, false);
}
