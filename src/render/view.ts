import { catchError, defer, of, scan, type Observable, type OperatorFunction } from 'rxjs';
import { toA2AError, type A2AError } from '../errors.js';
import type { Attachment, Interrupt, ReplyMissing, TurnErrorEvent, TurnEvent, TurnOutcome, UserMessage } from '../port/events.js';
import type { TaskState } from '../port/types.js';
import type { SurfaceView } from '../port/a2ui.js';
import type { Usage } from '../port/usage.js';
import { withSurfaceMessages } from './a2ui/surface-view.js';
import { coalesceBy, type CoalesceOptions } from './coalesce.js';
import { TextRope } from './rope.js';

/** A turn as a UI shows it: the state a store keeps, folded from the turn's events by {@link reduceTurn}. */
export interface TurnView {
  /** Its place in its agent's queue while the client holds it back (`agentLimits`: its `queued` events); absent once it starts. */
  queued?: number;
  /** `running` until the `end` event (`ended`) or an error (`error`). */
  phase: 'running' | 'ended' | 'error';
  /** The reply so far; after `end`, the final reply. */
  reply: string;
  /** The agent's latest progress text, shown until the reply starts; cleared at the end. */
  preview?: string;
  /** The answer's files and data parts so far, in order; after `end`, its final list. Absent while there are none. */
  attachments?: readonly Attachment[];
  /** What the agent is doing, from its latest framework record (a tool call); cleared at the end. */
  activity?: { kind: string; name?: string };
  /** The task's latest state. */
  state?: TaskState;
  /** How the turn ended; set by the `end` event. */
  outcome?: TurnOutcome;
  /** A completed turn's reply the turn did not get (the `end` event's `replyMissing`): say so, not a plain success. */
  replyMissing?: ReplyMissing;
  /** The question an `input-required` or `auth-required` end waits on (the `end` event's), to answer with `answerTo`. */
  interrupt?: Interrupt;
  /** The conversation's contextId, once known. */
  contextId?: string;
  /** The agent's task, once known. */
  taskId?: string;
  /** The person's message a resumed turn's task answers (its `request` event), when the agent kept it. */
  request?: UserMessage;
  /** True between a `reconnecting` event and the next event from the agent. */
  reconnecting: boolean;
  /** True once the ladder fell back to polling, until the end. */
  polling: boolean;
  /** The agent's sign-in request while the task is AUTH_REQUIRED. */
  authRequired?: { text?: string };
  /** A2UI: the agent's surfaces as the turn left them, by id (each its messages, to replay); absent while there are none. */
  surfaces?: Readonly<Record<string, SurfaceView>>;
  /** The turn's usage as the agent reported it so far (the latest `usage` event's total; the `end` event's); absent while it reported none. */
  usage?: Usage;
  /** The turn's error, when `phase` is `error`. */
  error?: A2AError;
}

/** The view before the first event. */
export const initialTurnView: TurnView = { phase: 'running', reply: '', reconnecting: false, polling: false };

/** The pure reducer behind {@link turnState}: one event in, the next view out (the input is never mutated). */
export function reduceTurn(view: TurnView, event: TurnEvent | TurnErrorEvent): TurnView {
  switch (event.type) {
    case 'queued':
      return { ...view, queued: event.place };
    case 'start':
      return { ...initialTurnView, ...ids(event.contextId, event.taskId) };
    case 'task':
      return { ...view, reconnecting: false, taskId: event.taskId, ...ids(event.contextId, undefined) };
    case 'request': {
      const { type: _type, ...request } = event;
      return { ...view, request };
    }
    case 'status': {
      const next: TurnView = { ...view, reconnecting: false, state: event.state };
      if (event.text !== undefined) next.preview = event.text;
      if (event.state !== 'auth-required') delete next.authRequired;
      return next;
    }
    case 'text':
      return withReply(view, event.replace ? event.text : view.reply + event.text);
    case 'attachment':
      // A new array per attachment (bounded by maxAttachments): other events share it, the input is never mutated.
      return { ...view, reconnecting: false, attachments: [...(view.attachments ?? []), event.attachment] };
    case 'activity':
      return {
        ...view,
        reconnecting: false,
        activity: event.name === undefined ? { kind: event.kind } : { kind: event.kind, name: event.name },
      };
    case 'auth-required':
      return { ...view, reconnecting: false, authRequired: event.text === undefined ? {} : { text: event.text } };
    case 'surface':
      return { ...view, reconnecting: false, surfaces: withSurfaceMessages(view.surfaces, event.surfaceId, event.messages, event.agent) };
    case 'surface-refused':
      return view;
    case 'usage':
      return { ...view, usage: event.total };
    case 'reconnecting':
      return { ...view, reconnecting: true };
    case 'polling':
      return { ...view, polling: true };
    case 'fallback':
    case 'task-gone':
    case 'context-refused':
    case 'reconcile':
    case 'push':
      return view;
    case 'context-adopted':
      return { ...view, contextId: event.adopted };
    case 'end': {
      const next: TurnView = { ...endedTurnView(view, event.outcome), reply: event.text, ...ids(event.contextId, event.taskId) };
      if (event.attachments !== undefined) next.attachments = event.attachments;
      if (event.replyMissing !== undefined) next.replyMissing = event.replyMissing;
      if (event.interrupt !== undefined) next.interrupt = event.interrupt;
      if (event.usage !== undefined) next.usage = event.usage;
      if (event.outcome !== 'auth-required') delete next.authRequired;
      return next;
    }
    case 'error':
      return { ...view, phase: 'error', error: event.error, reconnecting: false, polling: false };
  }
}

/**
 * The view of a turn ended with `outcome`, as far as the outcome alone says: not running, not
 * reconnecting or polling, its progress text, activity and question cleared; its reply, ids, attachments and
 * sign-in request as they were. The `end` step of {@link reduceTurn} starts from it, and so does a
 * view that shows a cancel at once (the Angular conversation's `cancel()`) rather than wait for an
 * end the unsubscribed turn never sends. The input is never mutated.
 */
export function endedTurnView(view: TurnView, outcome: TurnOutcome): TurnView {
  const next: TurnView = { ...view, phase: 'ended', outcome, reconnecting: false, polling: false };
  delete next.preview;
  delete next.activity;
  delete next.interrupt;
  return next;
}

/** The view after a `text` event made the reply `reply`. */
function withReply(view: TurnView, reply: string): TurnView {
  const next: TurnView = { ...view, reconnecting: false, reply };
  delete next.preview;
  return next;
}

function ids(contextId: string | undefined, taskId: string | undefined): Pick<TurnView, 'contextId' | 'taskId'> {
  return { ...(contextId === undefined ? {} : { contextId }), ...(taskId === undefined ? {} : { taskId }) };
}

/**
 * Folds a turn's events into {@link TurnView}s, one per event: pipe a turn into it and hand the
 * views to a store or a signal. With `coalesceMs` (e.g. 50) a long reply re-renders at most once
 * per window: the first view at once, then the latest of each window, the end (or an error view)
 * at once and never dropped (see {@link coalesceViews}).
 */
export function turnState(options: CoalesceOptions = {}): OperatorFunction<TurnEvent | TurnErrorEvent, TurnView> {
  const coalesce = coalesceBy(options, isFinalView);
  return (events: Observable<TurnEvent | TurnErrorEvent>) =>
    defer(() => {
      // {@link reduceTurn}, with the reply grown in a short rope of flat blocks (the fold's own, per subscription):
      // a long reply as one `reply + text` per chunk is a rope of every chunk that each collection walks.
      const rope = new TextRope();
      const reduce = (view: TurnView, event: TurnEvent | TurnErrorEvent): TurnView =>
        event.type === 'text' && !event.replace ? withReply(view, rope.append(view.reply, event.text)) : reduceTurn(view, event);
      return events.pipe(scan(reduce, initialTurnView), coalesce);
    });
}

/** Whether the turn has nothing more to say after `view` (ended or failed): what {@link turnState} never holds back. */
export function isFinalView(view: TurnView): boolean {
  return view.phase !== 'running';
}

/**
 * Opt-in: turns an error into a last `error` event and completes, for consumers that must not see
 * the error channel (Angular's `toSignal` throws on read after an error; NgRx effects die).
 */
export function catchTurnError(): OperatorFunction<TurnEvent, TurnEvent | TurnErrorEvent> {
  return catchError((error: unknown) => of<TurnErrorEvent>({ type: 'error', error: toA2AError(error, 'turn') }));
}
