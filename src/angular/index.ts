/**
 * `a4h-a2a/angular`: the client as an Angular provider, and a conversation whose turn is a signal.
 * Plain functions over `@angular/core` (no decorators, nothing for the Angular compiler), ESM only.
 *
 * @packageDocumentation
 */
import {
  computed,
  DestroyRef,
  inject,
  InjectionToken,
  makeEnvironmentProviders,
  PLATFORM_ID,
  signal,
  type EnvironmentProviders,
} from '@angular/core';
import { concat, defer, EMPTY, finalize, of, skipWhile, Subject, switchMap, tap, type Observable } from 'rxjs';
import { surfaceAction } from '../client/surface-action.js';
import { answerTo, type InterruptAnswer } from '../client/answer.js';
import { createA2A, type A2AClient, type A2AOptions, type TurnInput } from '../client/create-a2a.js';
import { coalesceBy } from '../render/coalesce.js';
import { contextIdFrom, conversationHistory, ids } from './history.js';
import { answeredAlready } from './interrupt.js';
import { conversationSurfaces } from './surfaces.js';
import type { A2AConversation, A2AConversationOptions } from './types.js';
import { catchTurnError, endedTurnView, initialTurnView, isFinalView, turnState, type TurnView } from '../render/view.js';

export type { A2AClient, A2AOptions, ResumeInput, TurnInput } from '../client/create-a2a.js';
export type { TurnView } from '../render/view.js';
export type { HistoryExchange, HistoryPage } from '../port/history.js';
export type { A2AError } from '../errors.js';
export type { Elicitation } from '../port/types.js';
export type { Interrupt } from '../port/events.js';
export type { InterruptAnswer, InterruptReply } from '../client/answer.js';
export type { SurfaceActionInput } from '../client/surface-action.js';
export type { A2UIMessage, A2UIMessageKind, A2UIRefusal, SurfaceView } from '../port/a2ui.js';
export type { SurfaceRefusedEvent } from '../port/events.js';
export type { SurfaceAct } from './types.js';
export { MAX_CONVERSATION_SURFACES, MAX_TURN_REFUSALS } from './surfaces.js';
export type { A2AConversation, A2AConversationOptions } from './types.js';
export { ANSWERED_ALREADY, answeredAlready } from './interrupt.js';

/** The client `provideA2A` provides; `injectA2A()` reads it. */
export const A2A_CLIENT = new InjectionToken<A2AClient>('a4h-a2a client');

/**
 * Provides one client (the browser-safe core's `createA2A(options)`) to the environment injector,
 * e.g. in `bootstrapApplication(App, { providers: [provideA2A()] })`. The client is closed when that
 * injector is destroyed.
 */
export function provideA2A(options: A2AOptions = {}): EnvironmentProviders {
  return makeEnvironmentProviders([
    {
      provide: A2A_CLIENT,
      useFactory: (): A2AClient => {
        const client = createA2A(options);
        inject(DestroyRef).onDestroy(() => void client.close());
        return client;
      },
    },
  ]);
}

/** The client of {@link provideA2A}; call it in an injection context (a field initializer, a constructor). */
export function injectA2A(): A2AClient {
  return inject(A2A_CLIENT);
}

/**
 * A message of {@link A2AConversation.send}, an answer of {@link A2AConversation.answer} (`answerTo`'s
 * fields), or an action of {@link A2AConversation.act} (`surfaceAction`'s, made when the turn starts).
 */
type Message = Pick<TurnInput, 'text' | 'files' | 'data'> | InterruptAnswer | (() => Pick<TurnInput, 'text' | 'data' | 'metadata'>);

/** What the conversation's one switchMap runs next: a turn for a message, a resume, or nothing (a cancel). */
type Next = { message: Message } | 'resume' | 'cancel';

/**
 * A conversation whose current turn is a signal: each `send` runs a turn (switchMap: the previous
 * one is cancelled), its events folded by `turnState()` into `view`; `resume()` runs the thread's
 * reply in flight the same way, `answer()` a turn that answers the agent's question (`interrupt`,
 * the `end` event's), and `act()` a turn that carries an action on one of the agent's A2UI
 * `surfaces`. Call it in an injection context; the running turn is cancelled when that context is
 * destroyed.
 */
export function a2aConversation(options: A2AConversationOptions): A2AConversation {
  const client = options.client ?? injectA2A();
  const onServer = inject(PLATFORM_ID, { optional: true }) === 'server';
  const view = signal<TurnView | undefined>(undefined);
  const resuming = signal(false);
  const requests = new Subject<Next>();
  const thread = { agent: options.agent, handle: options.handle, thread: options.thread };
  const withContextId = contextIdFrom(options.contextId);
  // The past, page by page, newest page first, each page prepended; its surfaces under the turns'.
  const past = conversationHistory(client, thread, withContextId, options.historyLimit);
  const drawn = conversationSurfaces(past.loaded);

  // Per turn, inside the switchMap: a cancel or the next send drops the view waiting in the window, with its timer.
  const coalesce = coalesceBy(options, isFinalView);

  // An action's fields are made inside the turn: a surface never created is that turn's error, not a throw.
  const turn = (message: Message): Observable<TurnView> =>
    concat(
      defer(() => {
        drawn.turnStarts();
        return of(initialTurnView);
      }),
      withContextId((contextId) =>
        client.turn({ ...thread, ...(typeof message === 'function' ? message() : message), ...ids(contextId) }),
      ).pipe(
        tap((event) => drawn.take(event)),
        catchTurnError(),
        turnState(),
      ),
    ).pipe(coalesce);

  // Nothing shows until the agent's task is known: a resume that finds none, or fails to look, leaves the view as it was.
  const resumed = (): Observable<TurnView> =>
    defer(() => {
      resuming.set(true);
      return withContextId((contextId) => client.resume({ ...thread, ...ids(contextId) })).pipe(
        tap((event) => drawn.take(event)),
        catchTurnError(),
        turnState(),
        skipWhile((next) => next.taskId === undefined),
        coalesce,
        tap(() => resuming.set(false)),
        finalize(() => resuming.set(false)),
      );
    });

  /** The tasks `view` showed: their exchanges show there, not in `history`. */
  const shownTasks = signal<ReadonlySet<string>>(new Set());
  const subscription = requests
    .pipe(switchMap((next) => (next === 'cancel' ? EMPTY : next === 'resume' ? resumed() : turn(next.message))))
    .subscribe((next) => {
      const { taskId } = next;
      if (taskId !== undefined && !shownTasks().has(taskId)) shownTasks.update((tasks) => new Set(tasks).add(taskId));
      view.set(next);
    });

  // The past less what `view` showed.
  const shownHistory = computed(() => {
    if (resuming()) return [];
    const shown = shownTasks();
    return past.loaded().filter((exchange) => !shown.has(exchange.taskId));
  });

  inject(DestroyRef).onDestroy(() => {
    subscription.unsubscribe();
    requests.complete();
    past.close();
  });

  return {
    view: view.asReadonly(),
    resuming: resuming.asReadonly(),
    send: (text, extra) => {
      if (!onServer) requests.next({ message: { text, ...extra } });
    },
    interrupt: computed(() => view()?.interrupt),
    answer: (question, reply) => {
      if (!onServer) requests.next({ message: answerTo(question, reply) });
    },
    answeredAlready: computed(() => answeredAlready(view())),
    surfaces: drawn.surfaces,
    surfacesRefused: drawn.refused,
    act: (surface, action) => {
      if (!onServer) requests.next({ message: () => surfaceAction({ ...action, surface }) });
    },
    cancel: () => {
      requests.next('cancel');
      const current = view();
      if (current?.phase === 'running') view.set(endedTurnView(current, 'canceled'));
    },
    resume: () => {
      if (!onServer) requests.next('resume');
    },
    history: shownHistory,
    hasEarlier: past.hasEarlier,
    loadingHistory: past.loadingHistory,
    historyError: past.historyError,
    loadEarlier: () => {
      if (!onServer) past.load();
    },
  };
}
