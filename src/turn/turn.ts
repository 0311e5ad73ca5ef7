import { asyncScheduler, catchError, concat, defer, EMPTY, of, switchMap, throwError, type Observable, type OperatorFunction } from 'rxjs';
import { A2AError, isA2AError, naming, timeoutError } from '../errors.js';
import { spread } from '../rx/spread.js';
import { followedBy } from '../rx/followed-by.js';
import { silentLogger } from '../logger.js';
import { TurnRenderer } from '../render/renderer.js';
import type { A2APort } from '../port/port.js';
import { checkInputModes, outgoingData, outgoingFiles } from '../port/outgoing.js';
import { checkCallerIds, checkRequest, type TurnRequest } from './request.js';
import type { AgentEvent, OutgoingMessage } from '../port/types.js';
import type { CardSummary } from '../port/card.js';
import { cancelWhenAbandoned } from './ladder/cancel.js';
import { trackedPort, type LadderContext } from './context.js';
import { HeardPort } from './ladder/heard.js';
import type { LadderNote, StartEvent, TurnEvent } from '../port/events.js';
import { replyFromHistory } from './ladder/history.js';
import { followTask, streamTurn } from './ladder/live.js';
import { firstLookups, needsSettling, sendSettled, type Settling } from './ladder/first-send.js';
import { headStart } from './ladder/head-start.js';
import { resolvePolicy, type TurnPolicy } from './policy.js';
import { notNowPort } from './not-now.js';
import { pollUntilSettled } from './ladder/poll.js';
import { sendBlocking } from './ladder/send.js';
import { handOff, pushedResume, pushedSend, pushPlan } from './ladder/push.js';
import { TurnTask } from './task.js';
import { watchdog } from '../rx/watchdog.js';
import { within } from './within.js';

export type { TurnRequest } from './request.js';
export type { LadderOptions } from './ladder-options.js';
import type { LadderOptions } from './ladder-options.js';

/**
 * The turn ladder: a cold Observable of {@link TurnEvent}s for one message to one agent.
 *
 * card → stream (or blocking send, by the card) → reconnect by resubscribe → poll → render. Nothing
 * happens until it is subscribed; each subscription is its own turn; unsubscribing cancels it (the
 * request is aborted and, if the task is not settled, `CancelTask` is sent once). `start` comes
 * first and `end` last; the error channel carries an {@link A2AError} when what the agent did
 * could not be learned.
 */
export function runTurn(port: A2APort, request: TurnRequest, options: LadderOptions = {}): Observable<TurnEvent> {
  return defer(() => {
    let policy: TurnPolicy;
    try {
      policy = resolvePolicy(options.policy);
      checkRequest(request, policy.maxAttachmentBytes);
    } catch (error) {
      return concat(
        of<TurnEvent>(startOf(request)),
        throwError(() => error),
      );
    }
    return runCheckedTurn(port, request, { ...options, policy });
  });
}

/**
 * {@link runTurn} for a request already checked (with {@link checkRequest}) and a resolved policy:
 * the client facade checks its whole input once, before it derives the contextId.
 */
export function runCheckedTurn(
  port: A2APort,
  request: TurnRequest,
  options: LadderOptions & { policy: TurnPolicy },
): Observable<TurnEvent> {
  return defer(() => {
    const messageId = request.messageId ?? globalThis.crypto.randomUUID();
    const message: OutgoingMessage = { ...request, messageId };
    const start: StartEvent = { ...startOf(request), messageId };
    return runLadder<Settling>(
      port,
      start,
      new TurnTask(start),
      options,
      (ctx, card, settling$) => {
        checkInputModes(card, outgoingFiles(message), outgoingData(message));
        const plan = pushPlan(options.push, card, message.contextId);
        const send = (sent: OutgoingMessage): Observable<AgentEvent | LadderNote> => {
          if (plan === 'now' && sent.contextId)
            return pushedSend(ctx, { ...sent, contextId: sent.contextId }, options.push!, card.streaming);
          const live$ = card.streaming ? streamTurn(ctx, sent) : sendBlocking(ctx, sent);
          return typeof plan === 'number' ? handOff(ctx, live$, options.push!, plan, card.streaming) : live$;
        };
        return settling$ === undefined ? send(message) : sendSettled(settling$, send);
      },
      needsSettling(message, options) ? (ctx, agent$) => firstLookups(port, ctx, message, options, agent$) : undefined,
    );
  });
}

/** A task to follow without sending anything: its id, and the conversation it belongs to when known. */
export interface ResumeRequest {
  /** The task to follow. */
  taskId: string;
  /** Its conversation, when known. */
  contextId?: string;
}

/**
 * A turn that follows a task already at the agent (started by another process, or before a
 * restart) instead of sending a message: the same events as {@link runTurn}, from the task's
 * snapshot (what was already said) to its end, with the same reconnect, poll, cancel and bounds. On
 * a streaming agent it resubscribes at once; otherwise it polls. A task the agent does not know is
 * the turn's error; unsubscribing cancels the task like any turn.
 */
export function runResume(port: A2APort, request: ResumeRequest, options: LadderOptions = {}): Observable<TurnEvent> {
  return defer(() => {
    const start: StartEvent = { type: 'start', taskId: request.taskId };
    if (request.contextId !== undefined) start.contextId = request.contextId;
    let policy: TurnPolicy;
    try {
      policy = resolvePolicy(options.policy);
      if (typeof request.taskId !== 'string' || request.taskId === '') {
        throw new A2AError({ kind: 'input', operation: 'turn', message: 'taskId must be a non-empty string' });
      }
      checkCallerIds(request);
    } catch (error) {
      return concat(
        of<TurnEvent>(start),
        throwError(() => error),
      );
    }
    const task = new TurnTask({ ...(request.contextId === undefined ? {} : { contextId: request.contextId }), resumes: request.taskId });
    return runLadder(port, start, task, { ...options, policy }, (ctx, card) => {
      const live$ = card.streaming ? followTask(ctx, request.taskId) : pollUntilSettled(ctx, request.taskId, false);
      const plan = pushPlan(options.push, card, request.contextId);
      if (plan === undefined) return live$;
      return plan === 'now'
        ? pushedResume(ctx, live$, options.push!, card.streaming)
        : handOff(ctx, live$, options.push!, plan, card.streaming);
    });
  });
}

/**
 * One turn's ladder around `body` (what the turn does once the card is known): the card with its
 * bound, the turn deadline, the reply read from history at a bare end, the renderer, and the cancel
 * on abandon. Every turn, sent or resumed, is this. `early`, when given, runs beside
 * the card (see {@link headStart}); `body` gets what it gives.
 */
function runLadder<S = never>(
  port: A2APort,
  start: StartEvent,
  task: TurnTask,
  options: LadderOptions & { policy: TurnPolicy },
  body: (ctx: LadderContext, card: CardSummary, early$: Observable<S> | undefined) => Observable<AgentEvent | LadderNote>,
  early?: (ctx: LadderContext, agent$: Observable<string>) => Observable<S>,
): Observable<TurnEvent> {
  const { policy } = options;
  const random = options.random ?? Math.random;
  const deadline = asyncScheduler.now() + policy.turnTimeoutMs;
  const renderer = new TurnRenderer(task, {
    maxChars: policy.maxReplyChars,
    maxArtifacts: policy.maxArtifacts,
    maxAttachmentBytes: policy.maxAttachmentBytes,
    maxAttachments: policy.maxAttachments,
  });
  const ctx: LadderContext = {
    port: options.onAgentEvent
      ? new HeardPort(trackedPort(notNowPort(port, policy, random, deadline), task), options.onAgentEvent)
      : trackedPort(notNowPort(port, policy, random, deadline), task),
    policy,
    random,
    logger: options.logger ?? silentLogger,
    task,
    ...(options.onCancel ? { onCancel: options.onCancel } : {}),
    ...(options.detached ? { detached: options.detached } : {}),
    nothingShown: () => renderer.nothingShown,
  };
  let agent: string | undefined;
  const card$ = ctx.port.card().pipe(within<CardSummary>(policy.cardTimeoutMs, 'card', 'card'));
  // Called as switchMap's project (the index unused) when nothing runs beside the card: no closure more per turn.
  const afterCard = (card: CardSummary, _index?: number, early$?: Observable<S>) => {
    agent = card.url;
    return body(ctx, card, early$).pipe(followedBy(() => replyFromHistory(ctx, ctx.nothingShown!)));
  };
  const settled$ =
    early === undefined
      ? card$.pipe(switchMap(afterCard))
      : headStart(
          card$,
          (agent$) => early(ctx, agent$),
          (card, early$) => afterCard(card, 0, early$),
        );
  const agent$ = settled$.pipe(
    watchdog({ first: policy.turnTimeoutMs, each: () => 'keep', expired: () => timeoutError('turn', policy.turnTimeoutMs, 'turn') }),
    // The deadline during an auth wait ends the wait, as `authWaitMs` running out would: outcome auth-required.
    catchError((error: unknown) => {
      if (isA2AError(error, 'timeout') && error.phase === 'turn' && task.state === 'auth-required') return EMPTY;
      // The ladder's own errors (its bounds, a stream closed early) name the agent, as the port's do.
      return throwError(() =>
        agent !== undefined && isA2AError(error, 'timeout', 'stream-closed', 'foreign-task') ? naming(error, agent, 'turn') : error,
      );
    }),
  );
  return agent$.pipe(render(start, renderer), cancelWhenAbandoned(ctx));
}

function startOf(request: TurnRequest): StartEvent {
  const start: StartEvent = { type: 'start' };
  if (request.contextId !== undefined) start.contextId = request.contextId;
  if (request.taskId !== undefined) start.taskId = request.taskId;
  return start;
}

/**
 * The renderer as an operator: `start` first, each signal's events in order, then the last
 * correction and `end` when the ladder completes. One hop per event (see {@link spread}).
 */
function render(start: StartEvent, renderer: TurnRenderer): OperatorFunction<AgentEvent | LadderNote, TurnEvent> {
  return spread<AgentEvent | LadderNote, TurnEvent>({
    first: [start],
    each: (signal) => renderer.push(signal),
    last: () => renderer.finish(),
  });
}
