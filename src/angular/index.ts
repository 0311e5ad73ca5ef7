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
  type Signal,
} from '@angular/core';
import {
  catchError,
  concat,
  defer,
  EMPTY,
  exhaustMap,
  finalize,
  from,
  of,
  skipWhile,
  Subject,
  switchMap,
  take,
  tap,
  type Observable,
  type ObservableInput,
} from 'rxjs';
import { createA2A, type A2AClient, type A2AOptions, type TurnInput } from '../client/create-a2a.js';
import { toA2AError, type A2AError } from '../errors.js';
import type { TurnEvent } from '../port/events.js';
import type { HistoryExchange, HistoryPage } from '../port/history.js';
import { coalesceBy, type CoalesceOptions } from '../render/coalesce.js';
import { catchTurnError, endedTurnView, initialTurnView, isFinalView, turnState, type TurnView } from '../render/view.js';

export type { A2AClient, A2AOptions, ResumeInput, TurnInput } from '../client/create-a2a.js';
export type { TurnView } from '../render/view.js';
export type { HistoryExchange, HistoryPage } from '../port/history.js';
export type { A2AError } from '../errors.js';

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
 * One chat thread to one agent, for {@link a2aConversation}. With `coalesceMs` (e.g. 50) `view`
 * changes at most once per window while a turn runs: its first view and its end at once, the
 * latest in between (see the core's `coalesceViews`); without it, once per event.
 */
export interface A2AConversationOptions extends CoalesceOptions {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle: part of the contextId derivation. */
  handle: string;
  /** The conversation key. */
  thread: string;
  /**
   * The thread's contextId from your backend (which keeps the identity secret and calls
   * `deriveContextId`): called, and its first value taken, inside each turn's Observable (and each
   * resume's), so no app initializer is needed and a failed fetch shows as the turn's error. Without
   * it the client derives one.
   */
  contextId?: () => ObservableInput<string>;
  /** The client; default {@link injectA2A}. */
  client?: A2AClient;
  /** The exchanges of each history page {@link A2AConversation.loadEarlier} loads, 1–100. Default 20 (the client's). */
  historyLimit?: number;
}

/** What {@link a2aConversation} returns. */
export interface A2AConversation {
  /**
   * The current turn's view (see `turnState`); `undefined` before the first message or resumed reply.
   * Errors show as `phase: 'error'`.
   */
  readonly view: Signal<TurnView | undefined>;
  /** True while `resume()` is looking for a reply in flight, until one shows in `view` or none is found. */
  readonly resuming: Signal<boolean>;
  /**
   * Runs a turn for this message, cancelling the one still running (its task gets a CancelTask).
   * On the server (`PLATFORM_ID` is `'server'`) it does nothing: no turn runs during SSR.
   */
  send(text: string, extra?: Pick<TurnInput, 'files' | 'data'>): void;
  /** Cancels the running turn, if any (its task gets a CancelTask); the view ends with outcome `canceled`. */
  cancel(): void;
  /**
   * Shows the thread's reply in flight, if there is one: call it once at start (a component's
   * constructor), so a page reloaded mid-reply picks the reply up again (`client.resume` with the
   * same contextId function as a turn). A running task becomes the current turn: `view` brings what
   * the agent already said, then the rest live, and `cancel()` or a `send` cancels it like any turn.
   * A question the agent is waiting on (`input-required`, `auth-required`) shows as a turn that
   * ended so, and the next `send` answers it in its task.
   *
   * Best effort: nothing unfinished (outcome `none`), or a failure to look (the agent down, a v0.3
   * agent without `ListTasks`, a failed contextId fetch), leaves `view` as it was. A `send` while it
   * looks replaces it. On the server (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  resume(): void;
  /**
   * The thread's past, as {@link A2AConversation.loadEarlier} loaded it from the agent (`client.history`):
   * its exchanges, oldest first, to show above the conversation's own turns. Nothing doubled: an
   * exchange whose task this conversation showed in `view` (the reply in flight that `resume()`
   * follows, which the agent lists too, or a question a `send` answered) is left out, as it shows
   * through `view`; and while `resuming()` is true it is empty, so the reply in flight never shows twice.
   */
  readonly history: Signal<readonly HistoryExchange[]>;
  /** True when the agent has exchanges before the oldest in `history`: show a "Load earlier" button. */
  readonly hasEarlier: Signal<boolean>;
  /** True while a history page loads. */
  readonly loadingHistory: Signal<boolean>;
  /**
   * Why the last history page failed, until the next load: `kind: 'unsupported'` for an agent that lists
   * no tasks (v0.3: it shows no history), or the agent's or the contextId fetch's failure. Never thrown.
   */
  readonly historyError: Signal<A2AError | undefined>;
  /**
   * Loads a page of the thread's past into `history`: on the first call the newest `historyLimit`
   * exchanges (call it once at start, beside `resume()`), then on each call the page before the oldest
   * one loaded ("Load earlier", while `hasEarlier()`). One load at a time: a call while a page loads,
   * or after the oldest page, does nothing. The contextId comes from the `contextId` option, as a
   * turn's does. A failure leaves `history` as it was (see `historyError`). On the server
   * (`PLATFORM_ID` is `'server'`) it does nothing.
   */
  loadEarlier(): void;
}

/** `{ contextId }` when there is one (the inputs' `contextId` is optional, not undefined). */
const ids = (contextId: string | undefined): { contextId?: string } => (contextId === undefined ? {} : { contextId });

/** A message of {@link A2AConversation.send}. */
type Message = Pick<TurnInput, 'text' | 'files' | 'data'>;

/** What the conversation's one switchMap runs next: a turn for a message, a resume, or nothing (a cancel). */
type Next = { message: Message } | 'resume' | 'cancel';

/**
 * A conversation whose current turn is a signal: each `send` runs a turn (switchMap: the previous
 * one is cancelled), its events folded by `turnState()` into `view`; `resume()` runs the thread's
 * reply in flight the same way. Call it in an injection context; the running turn is cancelled when
 * that context is destroyed.
 */
export function a2aConversation(options: A2AConversationOptions): A2AConversation {
  const client = options.client ?? injectA2A();
  const onServer = inject(PLATFORM_ID, { optional: true }) === 'server';
  const view = signal<TurnView | undefined>(undefined);
  const resuming = signal(false);
  const requests = new Subject<Next>();
  const thread = { agent: options.agent, handle: options.handle, thread: options.thread };

  /** `run` with the thread's contextId from the backend, fetched when subscribed; without the option, the client derives it. */
  const withContextId = <T>(run: (contextId?: string) => Observable<T>): Observable<T> =>
    defer(() =>
      options.contextId === undefined
        ? run()
        : from(options.contextId()).pipe(
            take(1),
            switchMap((contextId) => run(contextId)),
          ),
    );

  // Per turn, inside the switchMap: a cancel or the next send drops the view waiting in the window, with its timer.
  const coalesce = coalesceBy(options, isFinalView);

  const turn = (message: Message): Observable<TurnView> =>
    concat(
      of(initialTurnView),
      withContextId((contextId) => client.turn({ ...thread, ...message, ...ids(contextId) })).pipe(catchTurnError(), turnState()),
    ).pipe(coalesce);

  // Nothing shows until the agent's task is known: a resume that finds none, or fails to look, leaves the view as it was.
  const resumed = (): Observable<TurnView> =>
    defer(() => {
      resuming.set(true);
      return withContextId((contextId) => client.resume({ ...thread, ...ids(contextId) })).pipe(
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

  // The past, page by page (exhaustMap: one load at a time), newest page first, each page prepended.
  const loaded = signal<readonly HistoryExchange[]>([]);
  const hasEarlier = signal(false);
  const loadingHistory = signal(false);
  const historyError = signal<A2AError | undefined>(undefined);
  let cursor: { before?: string } | undefined; // undefined before the first page
  const loads = new Subject<void>();
  const page = (): Observable<HistoryPage> =>
    defer(() => {
      if (cursor !== undefined && cursor.before === undefined) return EMPTY; // the oldest page is shown
      const { before } = cursor ?? {};
      loadingHistory.set(true);
      historyError.set(undefined);
      return withContextId((contextId) =>
        client.history({
          ...thread,
          ...ids(contextId),
          ...(options.historyLimit === undefined ? {} : { limit: options.historyLimit }),
          ...(before === undefined ? {} : { before }),
        }),
      ).pipe(
        tap((next) => {
          cursor = next.before === undefined ? {} : { before: next.before };
          hasEarlier.set(next.before !== undefined);
          loaded.update((list) => {
            const known = new Set(list.map((exchange) => exchange.taskId));
            return [...next.exchanges.filter((exchange) => !known.has(exchange.taskId)), ...list];
          });
        }),
        catchError((error: unknown) => {
          historyError.set(toA2AError(error, 'list-tasks'));
          return EMPTY;
        }),
        finalize(() => loadingHistory.set(false)),
      );
    });
  const history = loads.pipe(exhaustMap(page)).subscribe();
  const shownHistory = computed(() => {
    if (resuming()) return [];
    const shown = shownTasks();
    return loaded().filter((exchange) => !shown.has(exchange.taskId));
  });

  inject(DestroyRef).onDestroy(() => {
    subscription.unsubscribe();
    requests.complete();
    history.unsubscribe();
    loads.complete();
  });

  return {
    view: view.asReadonly(),
    resuming: resuming.asReadonly(),
    send: (text, extra) => {
      if (!onServer) requests.next({ message: { text, ...extra } });
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
    hasEarlier: hasEarlier.asReadonly(),
    loadingHistory: loadingHistory.asReadonly(),
    historyError: historyError.asReadonly(),
    loadEarlier: () => {
      if (!onServer) loads.next();
    },
  };
}
