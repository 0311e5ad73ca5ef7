/**
 * The chat's state and actions, with no DOM: the thread's past (its history, read from the agent),
 * a list of exchanges (what the user said, and the agent's turn folded into a `TurnView`), the one
 * running turn, and a status line derived from it. At start it reads the newest page of the past
 * and resumes the thread's reply in flight, if any (a page reloaded mid-reply). The client opts in to
 * A2UI with the basic catalog the page draws (main.ts and surfaces.ts draw it; this file has no DOM).
 */
import { catchTurnError, createA2A, initialTurnView, isA2AError, turnState } from 'a4h-a2a';
import type { A2AClient, HistoryExchange, OutgoingFile, SurfaceActionAnswer, TurnEvent, TurnView } from 'a4h-a2a';
import { tap, type Observable, type Subscription } from 'rxjs';
import { resumeCheckOf } from './resume.js';
import { statusOf } from './status.js';
import type { Status } from './status.js';
import type { ResumeCheck } from './resume.js';
import { computed, signal } from './signals.js';
import type { ReadonlySignal } from './signals.js';

export type { ResumeCheck } from './resume.js';
export { outcomeText } from './status.js';
export type { Status } from './status.js';

import {
  A2UI_CATALOG,
  type AgentReach,
  type ChatConfig,
  type Exchange,
  type HistoryState,
  type ResumedExchange,
  type SentExchange,
} from './exchange.js';

export interface Chat {
  /** Whether the agent can be reached (the status line says so instead of "Ready"). */
  readonly reach: ReadonlySignal<AgentReach>;
  /** The look for a reply in flight at start; `checking` until it settles. */
  readonly resume: ReadonlySignal<ResumeCheck>;
  /**
   * The thread's past, oldest first, above `exchanges`: each exchange once (the reply in flight, which
   * the agent lists too, shows as the resumed exchange), and none while the look for it is checking.
   */
  readonly past: ReadonlySignal<readonly HistoryExchange[]>;
  /** The last page of the past: loading, shown (and whether there is an earlier one), or why not. */
  readonly history: ReadonlySignal<HistoryState>;
  readonly exchanges: ReadonlySignal<readonly Exchange[]>;
  /** True while a turn runs (Cancel is enabled). */
  readonly busy: ReadonlySignal<boolean>;
  /** False while a turn runs, or the look for a reply in flight or the first page of the past is still loading (Send is disabled). */
  readonly canSend: ReadonlySignal<boolean>;
  readonly status: ReadonlySignal<Status>;
  /** Sends `text` (and `files`) as the next turn; ignored unless `canSend`, or when there is neither text nor a file. */
  send(text: string, files?: readonly OutgoingFile[]): void;
  /**
   * Sends a surface's action (`surfaceAction(...)`'s fields) as the next turn, `label` what the person's
   * bubble says; ignored unless `canSend`. Returns whether it went.
   */
  act(answer: SurfaceActionAnswer, label: string): boolean;
  /** Cancels the running turn: unsubscribing makes the library abort the stream and send CancelTask. */
  cancel(): void;
  /** Loads the page of the past before the oldest shown ("Load earlier"); ignored while one loads or when there is none. */
  loadEarlier(): void;
}

/** The agent's handle in contextId derivation; the backend uses the same. */
export const HANDLE = 'web';

/**
 * The chat of one thread. It starts by reading the newest page of the thread's past
 * (`client.history`) and, at the same time, resuming the thread's reply in flight (`client.resume`):
 * a running task shows as a resumed exchange that streams on below the past, a question the agent
 * waits on shows again (the next message answers it in its task); nothing unfinished, or a failure
 * to look, shows no exchange. Send waits for both.
 */
export function createChat(config: ChatConfig, client: A2AClient = createA2A({ a2ui: { catalogs: [A2UI_CATALOG] } })): Chat {
  const exchanges = signal<readonly Exchange[]>([]);
  let running: { id: number; subscription: Subscription } | undefined;
  let nextId = 1;

  const patch = (id: number, change: Partial<Pick<Exchange, 'view' | 'stopped' | 'refused'>>): void =>
    exchanges.update((list) => list.map((exchange) => (exchange.id === id ? { ...exchange, ...change } : exchange)));

  const last = computed(() => exchanges().at(-1));
  const busy = computed(() => {
    const exchange = last();
    return exchange !== undefined && exchange.view.phase === 'running' && !exchange.stopped;
  });
  const reach = signal<AgentReach>({ state: 'checking' });
  const resume = signal<ResumeCheck>({ state: 'checking' });
  const history = signal<HistoryState>({ state: 'loading' });
  /** Whether the first page of the past was read (or could not be): Send waits for it. */
  const opened = signal(false);
  const canSend = computed(() => !busy() && resume().state !== 'checking' && opened());
  const status = computed((): Status => statusOf(last(), reach(), resume(), opened(), config.agent));

  // The past as loaded, newest page first, each earlier page prepended; shown without the tasks the exchanges show.
  const loaded = signal<readonly HistoryExchange[]>([]);
  const past = computed(() => {
    if (resume().state === 'checking') return [];
    const live = new Set(exchanges().map((exchange) => exchange.view.taskId));
    return loaded().filter((exchange) => !live.has(exchange.taskId));
  });
  // The card, once: an agent that is down shows at once, not after the first message.
  client.card(config.agent).subscribe({
    next: () => reach.set({ state: 'reachable' }),
    error: (error: unknown) => {
      if (reach.peek().state === 'checking') reach.set({ state: 'unreachable', message: errorMessage(error) });
    },
  });

  /**
   * Runs the turn `turn$` as exchange `id`: each view goes to `show`, with the refusals so far; the
   * turn is `running` until it completes. The views are coalesced (at most one per 50 ms, the first and
   * the end at once), so a long reply re-renders the page twenty times a second at most, not once per chunk.
   */
  const run = (id: number, turn$: Observable<TurnEvent>, show: (view: TurnView, refused: readonly string[]) => void): void => {
    let refused: readonly string[] = [];
    const noted = turn$.pipe(tap((event) => event.type === 'surface-refused' && (refused = [...refused, event.message])));
    const subscription = noted.pipe(catchTurnError(), turnState({ coalesceMs: 50 })).subscribe({
      next: (view) => {
        if (view.outcome !== undefined) reach.set({ state: 'reachable' });
        show(view, refused);
      },
      complete: () => {
        if (running?.id === id) running = undefined;
      },
    });
    if (!subscription.closed) running = { id, subscription };
  };

  // The reply in flight, if any: the exchange appears once the agent's task is known.
  const resumedId = nextId++;
  const thread = { agent: config.agent, handle: HANDLE, thread: config.thread, contextId: config.contextId };
  run(resumedId, client.resume(thread), (view, refused) => {
    if (resume.peek().state === 'found') {
      patch(resumedId, { view, refused });
      return;
    }
    const check = resumeCheckOf(view);
    if (check.state === 'found') exchanges.update((list) => [...list, { id: resumedId, resumed: true, view, refused, stopped: false }]);
    if (check.state !== resume.peek().state) resume.set(check);
  });

  /** The cursor of the page before the oldest shown: `undefined` before the first page, `null` after the oldest. */
  let before: string | null | undefined;
  let loadingPage = false;
  const loadPage = (): void => {
    if (loadingPage || before === null) return;
    loadingPage = true;
    history.set({ state: 'loading' });
    const page$ = client.history({
      ...thread,
      ...(config.historyLimit ? { limit: config.historyLimit } : {}),
      ...(before ? { before } : {}),
    });
    page$.subscribe({
      next: (page) => {
        before = page.before ?? null;
        loaded.update((list) => {
          const known = new Set(list.map((exchange) => exchange.taskId));
          return [...page.exchanges.filter((exchange) => !known.has(exchange.taskId)), ...list];
        });
        history.set({ state: 'shown', earlier: page.before !== undefined });
      },
      error: (error: unknown) => {
        loadingPage = false;
        opened.set(true);
        history.set(isA2AError(error, 'unsupported') ? { state: 'unsupported' } : { state: 'failed', message: errorMessage(error) });
      },
      complete: () => {
        loadingPage = false;
        opened.set(true);
      },
    });
  };
  loadPage();

  /** Sends the next turn: `text` and `files`, or an action's fields; the person's bubble shows `text`, or `action`. */
  const sendTurn = (text: string, files: readonly OutgoingFile[], answer?: SurfaceActionAnswer, action?: string): void => {
    const id = nextId++;
    const exchange: SentExchange = { id, resumed: false, text, files, view: initialTurnView, refused: [], stopped: false };
    exchanges.update((list) => [...list, action === undefined ? exchange : { ...exchange, action }]);
    const fields = answer ?? { text, ...(files.length > 0 ? { files } : {}) };
    run(id, client.turn({ ...thread, ...fields }), (view, refused) => patch(id, { view, refused }));
  };

  return {
    reach,
    resume,
    past,
    history,
    exchanges,
    busy,
    canSend,
    status,
    send(text, files = []) {
      if (!canSend.peek() || (text.trim() === '' && files.length === 0)) return;
      sendTurn(text, files);
    },
    act(answer, label) {
      if (!canSend.peek()) return false;
      sendTurn('', [], answer, label);
      return true;
    },
    cancel() {
      // While the look for a reply in flight is checking there is nothing on the page to cancel.
      if (running === undefined || resume.peek().state === 'checking') return;
      const { id, subscription } = running;
      running = undefined;
      subscription.unsubscribe();
      patch(id, { stopped: true });
    },
    loadEarlier: loadPage,
  };
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
