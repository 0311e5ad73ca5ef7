/**
 * `a4h-a2a/angular`: the client as an Angular provider, and a conversation whose turn is a signal.
 * Plain functions over `@angular/core` (no decorators, nothing for the Angular compiler), ESM only.
 */
import {
  DestroyRef,
  inject,
  InjectionToken,
  makeEnvironmentProviders,
  PLATFORM_ID,
  signal,
  type EnvironmentProviders,
  type Signal,
} from '@angular/core';
import { concat, defer, EMPTY, from, of, Subject, switchMap, take, type Observable, type ObservableInput } from 'rxjs';
import { createA2A, type A2AClient, type A2AOptions, type TurnInput } from '../client/create-a2a.js';
import type { TurnEvent } from '../port/events.js';
import { catchTurnError, endedTurnView, initialTurnView, turnState, type TurnView } from '../render/view.js';

export type { A2AClient, A2AOptions, ResumeInput, TurnInput } from '../client/create-a2a.js';
export type { TurnView } from '../render/view.js';

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

/** One chat thread to one agent, for {@link a2aConversation}. */
export interface A2AConversationOptions {
  /** The agent's base URL or card URL. */
  agent: string;
  /** The agent's handle: part of the contextId derivation. */
  handle: string;
  /** The conversation key. */
  thread: string;
  /**
   * The thread's contextId from your backend (which keeps the identity secret and calls
   * `deriveContextId`): called, and its first value taken, inside each turn's Observable, so no app
   * initializer is needed and a failed fetch shows as the turn's error. Without it the client derives one.
   */
  contextId?: () => ObservableInput<string>;
  /** The client; default {@link injectA2A}. */
  client?: A2AClient;
}

/** What {@link a2aConversation} returns. */
export interface A2AConversation {
  /** The current turn's view (see `turnState`); `undefined` before the first message. Errors show as `phase: 'error'`. */
  readonly view: Signal<TurnView | undefined>;
  /**
   * Runs a turn for this message, cancelling the one still running (its task gets a CancelTask).
   * On the server (`PLATFORM_ID` is `'server'`) it does nothing: no turn runs during SSR.
   */
  send(text: string, extra?: Pick<TurnInput, 'files' | 'data'>): void;
  /** Cancels the running turn, if any (its task gets a CancelTask); the view ends with outcome `canceled`. */
  cancel(): void;
}

/**
 * A conversation whose current turn is a signal: each `send` runs a turn (switchMap: the previous
 * one is cancelled), its events folded by `turnState()` into `view`. Call it in an injection
 * context; the running turn is cancelled when that context is destroyed.
 */
export function a2aConversation(options: A2AConversationOptions): A2AConversation {
  const client = options.client ?? injectA2A();
  const onServer = inject(PLATFORM_ID, { optional: true }) === 'server';
  const view = signal<TurnView | undefined>(undefined);
  const messages = new Subject<Pick<TurnInput, 'text' | 'files' | 'data'> | undefined>();

  const turn = (message: Pick<TurnInput, 'text' | 'files' | 'data'>): Observable<TurnEvent> =>
    defer(() => {
      const input: TurnInput = { agent: options.agent, handle: options.handle, thread: options.thread, ...message };
      if (options.contextId === undefined) return client.turn(input);
      return from(options.contextId()).pipe(
        take(1),
        switchMap((contextId) => client.turn({ ...input, contextId })),
      );
    });

  const subscription = messages
    .pipe(
      switchMap((message) =>
        message === undefined ? EMPTY : concat(of(initialTurnView), turn(message).pipe(catchTurnError(), turnState())),
      ),
    )
    .subscribe((next) => view.set(next));
  inject(DestroyRef).onDestroy(() => {
    subscription.unsubscribe();
    messages.complete();
  });

  return {
    view: view.asReadonly(),
    send: (text, extra) => {
      if (!onServer) messages.next({ text, ...extra });
    },
    cancel: () => {
      messages.next(undefined);
      const current = view();
      if (current?.phase === 'running') view.set(endedTurnView(current, 'canceled'));
    },
  };
}
