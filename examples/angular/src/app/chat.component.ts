/**
 * One chat thread with one agent. `a2aConversation` runs a turn per message and keeps the turn's
 * view in a signal, and loads the thread's past page by page; this component keeps this page's
 * earlier exchanges, the status line and the form. At start it loads the newest page of the past and
 * resumes the thread, so a page reloaded mid-reply shows the conversation so far, then the reply
 * going on below it (or the question the agent waits on). A question the agent asks (`chat.interrupt()`)
 * shows as a question, and the form answers it (`chat.answer`): an answer that comes after another
 * tab's says the question was answered already.
 */
import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { a2aConversation, ANSWERED_ALREADY, injectA2A, type HistoryExchange, type TurnView } from 'a4h-a2a/angular';
import { catchError, map, of, startWith } from 'rxjs';
import { EXAMPLE_CONFIG } from './app.config';
import { statusLine, type Reach } from './status';
import { SurfacesComponent } from './surfaces.component';

/**
 * A message sent and the agent's turn for it (its last view, once the next message is sent). `user`
 * is undefined for a reply resumed at start whose message the agent did not keep.
 */
export interface Exchange {
  user: string | undefined;
  view: TurnView | undefined;
}

/** What the user column says for a resumed reply whose message the agent did not keep. */
export const RESUMED_NOTE = '(your message from before the page was reloaded)';

/** What the user column says for an action sent from the agent's surface. */
export const actionNote = (name: string): string => `(pressed “${name}” on the agent's form)`;

/** The conversation key: `?thread=…`, else the example's own. */
function threadKey(): string {
  return new URLSearchParams(location.search).get('thread') || 'angular-demo';
}

/** The exchanges of each page of the past: `?page=N` (1–100), else 20. */
function historyLimit(): number {
  const page = Number(new URLSearchParams(location.search).get('page'));
  return Number.isInteger(page) && page >= 1 && page <= 100 ? page : 20;
}

/** The person's messages of an exchange of the past, one a line (a question answered in its task adds the answer). */
export function saidIn(exchange: HistoryExchange): string {
  return exchange.user.map((message) => message.text).join('\n') || '(the agent kept no message)';
}

/** The line under a reply of the past that did not complete. */
export function pastNote(exchange: HistoryExchange): string {
  if (exchange.error !== undefined) return exchange.error.message;
  if (exchange.outcome === undefined) return `unfinished (${exchange.state})`;
  return exchange.outcome === 'completed' ? '' : exchange.outcome;
}

@Component({
  selector: 'a4h-chat',
  templateUrl: './chat.component.html',
  styleUrl: './chat.component.css',
  imports: [SurfacesComponent],
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChatComponent {
  private readonly http = inject(HttpClient);
  protected readonly config = inject(EXAMPLE_CONFIG);
  protected readonly thread = threadKey();

  /**
   * The turn of the latest message, and the thread's past; the contextId is asked of the backend
   * inside each turn (and each page of the past). Its view changes at most once per 50 ms while a
   * reply streams (the first view and the end at once).
   */
  protected readonly chat = a2aConversation({
    agent: this.config.agent,
    handle: this.config.handle,
    thread: this.thread,
    coalesceMs: 50,
    historyLimit: historyLimit(),
    contextId: () =>
      this.http.get<{ contextId: string }>('/api/context', { params: { thread: this.thread } }).pipe(map((reply) => reply.contextId)),
  });

  /** The agent's card, read once at start (the client caches it for the turns). */
  protected readonly reach = toSignal(
    injectA2A()
      .card(this.config.agent)
      .pipe(
        map((card): Reach => ({ state: 'reachable', name: card.name })),
        catchError((error: unknown) =>
          of<Reach>({ state: 'unreachable', message: error instanceof Error ? error.message : String(error) }),
        ),
        startWith<Reach>({ state: 'checking' }),
      ),
    { requireSync: true },
  );

  /** The exchanges before the latest one. */
  protected readonly earlier = signal<readonly Exchange[]>([]);
  /** The latest message, if any (none, with a view, for a reply resumed at start). */
  protected readonly latest = signal<string | undefined>(undefined);
  protected readonly resumedNote = RESUMED_NOTE;
  protected readonly saidIn = saidIn;
  protected readonly pastNote = pastNote;

  protected readonly answeredAlreadyText = ANSWERED_ALREADY;

  /** The question the agent waits on, when the latest turn ended on one: the form answers it. */
  protected readonly question = this.chat.interrupt;
  protected readonly running = computed(() => this.chat.view()?.phase === 'running');
  /** Send waits while a turn runs, and while the resume at start or a page of the past is still loading (one round trip). */
  protected readonly canSend = computed(() => !this.running() && !this.chat.resuming() && !this.chat.loadingHistory());
  protected readonly status = computed(() =>
    statusLine(this.chat.view(), this.reach(), this.config.agent, this.chat.resuming(), this.chat.loadingHistory(), this.question()),
  );
  protected readonly contextId = computed(() => this.chat.view()?.contextId);
  /** Where the past stands (the test waits on it): loading, shown, or why not (a v0.3 agent keeps no history). */
  protected readonly historyState = computed(() => {
    if (this.chat.loadingHistory()) return 'loading';
    const error = this.chat.historyError();
    if (error === undefined) return 'shown';
    return error.kind === 'unsupported' ? 'unsupported' : 'failed';
  });

  constructor() {
    // The past (its newest page) above, the reply in flight below it; each exchange shows once.
    this.chat.loadEarlier();
    this.chat.resume();
  }

  /** The latest exchange, if any, moved to the earlier ones (before the next turn replaces `view`). */
  private keepLatest(): void {
    const latest = this.latest();
    const view = this.chat.view();
    if (latest !== undefined || view !== undefined) this.earlier.update((list) => [...list, { user: latest ?? view?.request?.text, view }]);
  }

  protected send(input: HTMLInputElement): void {
    const text = input.value.trim();
    if (text === '' || !this.canSend()) return;
    this.keepLatest();
    this.latest.set(text);
    input.value = '';
    // An answer to the agent's question goes as one (its task, its requests for input, its generation); else a new message.
    const question = this.question();
    if (question === undefined) this.chat.send(text);
    else this.chat.answer(question, text);
  }

  /** An action on the agent's surface is about to run as a turn: the exchange so far moves up, the action shows as the message. */
  protected acted(name: string): void {
    this.keepLatest();
    this.latest.set(actionNote(name));
  }

  protected cancel(): void {
    this.chat.cancel();
  }
}
