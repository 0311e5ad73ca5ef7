/**
 * One chat thread with one agent. `a2aConversation` runs a turn per message and keeps the turn's
 * view in a signal; this component keeps the earlier exchanges, the status line and the form. At
 * start it resumes the thread, so a page reloaded mid-reply shows the reply going on (or the
 * question the agent waits on).
 */
import { HttpClient } from '@angular/common/http';
import { ChangeDetectionStrategy, Component, computed, inject, signal } from '@angular/core';
import { toSignal } from '@angular/core/rxjs-interop';
import { a2aConversation, injectA2A, type TurnView } from 'a4h-a2a/angular';
import { catchError, map, of, startWith } from 'rxjs';
import { EXAMPLE_CONFIG } from './app.config';
import { statusLine, type Reach } from './status';

/**
 * A message sent and the agent's turn for it (its last view, once the next message is sent). `user`
 * is undefined for a reply resumed at start: its message was sent before the page was reloaded.
 */
export interface Exchange {
  user: string | undefined;
  view: TurnView | undefined;
}

/** What the user column says for a resumed reply. */
export const RESUMED_NOTE = '(your message from before the page was reloaded)';

/** The conversation key: `?thread=…`, else the example's own. */
function threadKey(): string {
  return new URLSearchParams(location.search).get('thread') || 'angular-demo';
}

@Component({
  selector: 'a4h-chat',
  templateUrl: './chat.component.html',
  styleUrl: './chat.component.css',
  changeDetection: ChangeDetectionStrategy.OnPush,
})
export class ChatComponent {
  private readonly http = inject(HttpClient);
  protected readonly config = inject(EXAMPLE_CONFIG);
  protected readonly thread = threadKey();

  /**
   * The turn of the latest message; the contextId is asked of the backend inside each turn. Its view
   * changes at most once per 50 ms while a reply streams (the first view and the end at once).
   */
  protected readonly chat = a2aConversation({
    agent: this.config.agent,
    handle: this.config.handle,
    thread: this.thread,
    coalesceMs: 50,
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

  protected readonly running = computed(() => this.chat.view()?.phase === 'running');
  /** Send waits while a turn runs, and while the resume at start is still looking (one round trip). */
  protected readonly canSend = computed(() => !this.running() && !this.chat.resuming());
  protected readonly status = computed(() => statusLine(this.chat.view(), this.reach(), this.config.agent, this.chat.resuming()));
  protected readonly contextId = computed(() => this.chat.view()?.contextId);

  constructor() {
    this.chat.resume();
  }

  protected send(input: HTMLInputElement): void {
    const text = input.value.trim();
    if (text === '' || !this.canSend()) return;
    const latest = this.latest();
    const view = this.chat.view();
    if (latest !== undefined || view !== undefined) this.earlier.update((list) => [...list, { user: latest, view }]);
    this.latest.set(text);
    input.value = '';
    this.chat.send(text);
  }

  protected cancel(): void {
    this.chat.cancel();
  }
}
