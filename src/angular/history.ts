import { signal, type Signal } from '@angular/core';
import {
  catchError,
  defer,
  EMPTY,
  exhaustMap,
  finalize,
  from,
  Subject,
  switchMap,
  take,
  tap,
  type Observable,
  type ObservableInput,
} from 'rxjs';
import type { A2AClient } from '../client/create-a2a.js';
import { toA2AError, type A2AError } from '../errors.js';
import type { HistoryExchange, HistoryPage } from '../port/history.js';

/** `{ contextId }` when there is one (the inputs' `contextId` is optional, not undefined). */
export const ids = (contextId: string | undefined): { contextId?: string } => (contextId === undefined ? {} : { contextId });

/**
 * `run` with the thread's contextId from the backend (`contextId`), fetched when subscribed, its first
 * value taken; without it, the client derives one.
 */
export function contextIdFrom(
  contextId: (() => ObservableInput<string>) | undefined,
): <T>(run: (contextId?: string) => Observable<T>) => Observable<T> {
  return (run) =>
    defer(() =>
      contextId === undefined
        ? run()
        : from(contextId()).pipe(
            take(1),
            switchMap((id) => run(id)),
          ),
    );
}

/** A conversation's past as signals, loaded page by page; `close()` stops it. */
export interface ConversationHistory {
  /** Every exchange loaded, oldest first. */
  readonly loaded: Signal<readonly HistoryExchange[]>;
  /** There is a page before the oldest loaded. */
  readonly hasEarlier: Signal<boolean>;
  /** A page is loading. */
  readonly loadingHistory: Signal<boolean>;
  /** Why the last page failed, until the next load. */
  readonly historyError: Signal<A2AError | undefined>;
  /** Loads the next page (the newest first, then each one before): one at a time, nothing after the oldest. */
  load(): void;
  /** Stops loading (the conversation was destroyed). */
  close(): void;
}

/**
 * The thread's past from the agent (`client.history`), page by page (exhaustMap: one load at a time),
 * newest page first, each page prepended (an exchange already loaded is not added twice). A failure
 * leaves what was loaded and shows in `historyError`.
 */
export function conversationHistory(
  client: A2AClient,
  thread: { agent: string; handle: string; thread: string },
  withContextId: <T>(run: (contextId?: string) => Observable<T>) => Observable<T>,
  historyLimit: number | undefined,
): ConversationHistory {
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
          ...(historyLimit === undefined ? {} : { limit: historyLimit }),
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
  return {
    loaded: loaded.asReadonly(),
    hasEarlier: hasEarlier.asReadonly(),
    loadingHistory: loadingHistory.asReadonly(),
    historyError: historyError.asReadonly(),
    load: () => loads.next(),
    close: () => {
      history.unsubscribe();
      loads.complete();
    },
  };
}
