import { catchError, map, of, type Observable } from 'rxjs';
import type { A2AClient, HistoryExchange, TurnEvent } from '../../../node/index.js';
import type { ChatSettings } from './settings.js';
import { reportError } from '../../core/errors.js';
import { dimLines, exchangeLines } from '../../turns/exchange-text.js';
import type { Io } from '../../core/io.js';

/**
 * The thread's last `settings.history` exchanges, oldest first, read from the agent (`ListTasks`),
 * as one value: none, without asking, for `--history 0`; none, quietly, when the agent cannot list
 * them (a v0.3 agent has no ListTasks; `--verbose` says why), as the resume at start is quiet.
 */
export function pastExchanges(io: Io, client: A2AClient, settings: ChatSettings): Observable<readonly HistoryExchange[]> {
  if (settings.history === 0) return of([]);
  const { agent, handle, thread, extensions, history: limit } = settings;
  return client.history({ agent, handle, thread, limit, ...extensions }).pipe(
    map((page) => page.exchanges),
    catchError((error: unknown) => {
      if (settings.verbose) reportError(io, error, true);
      return of([]);
    }),
  );
}

/**
 * The past exchanges a chat shows when it starts, held until the resume at start says which task it
 * follows: that exchange is left out (the resume shows it, under what it answers), the others are
 * written dimmed to stderr, once, before anything of the resumed reply.
 */
export class HeldHistory {
  private held: readonly HistoryExchange[] | undefined;

  constructor(
    private readonly io: Io,
    exchanges: readonly HistoryExchange[],
  ) {
    this.held = exchanges;
  }

  /** Called with each event of the resume at start, before it is shown: the first past `start` shows the history. */
  before(event: TurnEvent): void {
    if (event.type === 'start') return;
    this.show(event.type === 'task' ? event.taskId : undefined);
  }

  /** Shows the exchanges held (but the resumed task's, when given), the first time only. */
  show(resumed?: string): void {
    const exchanges = this.held ?? [];
    this.held = undefined;
    for (const exchange of exchanges) if (exchange.taskId !== resumed) dimLines(this.io, exchangeLines(exchange));
  }
}
