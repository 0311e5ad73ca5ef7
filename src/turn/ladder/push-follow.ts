import {
  catchError,
  concat,
  defer,
  EMPTY,
  exhaustMap,
  filter,
  map,
  merge,
  of,
  repeat,
  takeWhile,
  tap,
  throwError,
  timer,
  type Observable,
} from 'rxjs';
import { isA2AError } from '../../errors.js';
import type { Held } from '../../rx/held.js';
import type { LadderNote } from '../../port/events.js';
import type { PushDelivery } from '../../port/push.js';
import type { AgentEvent, Part, Task } from '../../port/types.js';
import type { LadderContext } from '../context.js';
import { ownedBy } from '../context.js';
import { pollUntilSettled, REQUEST_HISTORY } from './poll.js';
import { followTask, pollOnce } from './live.js';

type LadderSignal = AgentEvent | LadderNote;

/** How often a turn waiting for pushes checks its task itself, by default. */
export const DEFAULT_PUSH_CHECK_MS = 60_000;

/**
 * The task read once (what was said before the pushes were asked for), then followed by push. What was
 * pushed before the read went the read brings (it is forgotten); what came while it was on its way
 * and the read shows already is left out ({@link coveredBy}). `lenient`: a failed read is let pass
 * (a hand-over: the stream showed the task), else it is the turn's error (a resume: nothing was shown).
 */
export function readThenFollow(
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
