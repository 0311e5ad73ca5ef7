import { catchError, defer, last, map, scan, switchMap, takeWhile, throwError, type Observable } from 'rxjs';
import { A2AError, isA2AError, naming } from '../../errors.js';
import type { CardSummary } from '../../port/card.js';
import type { HistoryPage } from '../../port/history.js';
import type { A2APort } from '../../port/port.js';
import { decodeCursor, encodeCursor, type HistoryCursor } from './history-cursor.js';
import { NOTHING_GATHERED, takePage, type Gathered, type HistoryBounds } from './history-pages.js';
import { threadPages } from './listing.js';
import { resolvePolicy, type TurnPolicy, type TurnPolicyInput } from '../policy.js';
import { notNowPort } from '../not-now.js';
import { within } from '../within.js';

/** Exchanges of a history page by default (and the most recent ones a chat shows on opening). */
export const DEFAULT_HISTORY_LIMIT = 20;
/** The bytes of a history page's exchanges by default: 8 MiB. */
export const DEFAULT_HISTORY_BYTES = 8 * 1024 * 1024;
/** Messages of each task's history asked for: enough to hold the person's messages after the agent's progress. */
export const HISTORY_MESSAGES = 20;

/** What {@link threadHistory} reads, and how far. */
export interface ThreadHistoryOptions {
  /** The newest exchanges wanted (before `before`), 1–100; also the `pageSize` asked of the agent. Default 20. */
  limit?: number;
  /** Where the page starts: the `before` of the page shown last ("load earlier"); the newest exchanges without it. */
  before?: string;
  /**
   * The bytes of the page's exchanges at most (their texts' characters, files' bytes, data as JSON):
   * the page ends before the exchange that would pass it (the first goes in whatever its size; the
   * policy bounds each reply). Default 8 MiB.
   */
  maxBytes?: number;
  /** `ListTasks` pages read at most for one history page (an agent may answer fewer tasks than asked). Default 10. */
  maxPages?: number;
  /** Bounds: each `ListTasks` within `poll.requestTimeoutMs`, the card within `cardTimeoutMs`, each reply within the reply bounds. */
  policy?: TurnPolicyInput | TurnPolicy;
}

/**
 * A conversation's past, rebuilt from the agent with no storage of ours: its tasks by `contextId`
 * (`ListTasks`, v1.0, with each task's artifacts and its last 20 messages), newest first as the
 * agent lists them, the conversation's own only (an agent may ignore the filter: strangers are
 * skipped), each task one exchange (the person's messages, and its snapshot through the turn renderer:
 * the reply a live turn would have ended with). One value, the {@link HistoryPage} (its exchanges
 * oldest first, as a chat shows them, and the cursor of the earlier ones), then complete.
 *
 * A cold Observable, as a turn is: nothing is asked before it is subscribed, unsubscribing aborts the
 * request in flight, and it runs on the ladder's clocks (virtual time in tests). Bounded: `limit`
 * exchanges, `maxBytes`, `maxPages` pages, each within the policy's `poll.requestTimeoutMs`. An agent
 * without ListTasks (v0.3) fails with an `unsupported` error; a bad option or cursor with `input`.
 */
export function threadHistory(port: A2APort, contextId: string, options: ThreadHistoryOptions = {}): Observable<HistoryPage> {
  return defer(() => {
    const policy = resolvePolicy(options.policy);
    const limit = whole('limit', options.limit, DEFAULT_HISTORY_LIMIT, 100);
    const maxBytes = whole('maxBytes', options.maxBytes, DEFAULT_HISTORY_BYTES, 2 ** 40);
    const maxPages = whole('maxPages', options.maxPages, 10, 100);
    const cursor = options.before === undefined ? undefined : decodeCursor(options.before);
    const bounds: HistoryBounds = {
      limit,
      maxBytes,
      pageSize: cursor?.size ?? limit,
      reply: {
        maxChars: policy.maxReplyChars,
        maxArtifacts: policy.maxArtifacts,
        maxAttachmentBytes: policy.maxAttachmentBytes,
        maxAttachments: policy.maxAttachments,
      },
    };
    // A 429 or 503 waited for as in a turn (there is no turn deadline here: each call's own bound).
    const agent = notNowPort(port, policy, Math.random, Number.POSITIVE_INFINITY);
    return agent.card().pipe(
      within<CardSummary>(policy.cardTimeoutMs, 'card', 'card'),
      switchMap((card) =>
        gather(agent, contextId, cursor, bounds, { maxPages, requestTimeoutMs: policy.poll.requestTimeoutMs }).pipe(
          catchError((error: unknown) => throwError(() => (isA2AError(error) ? named(error, card.url) : error))),
        ),
      ),
      map((gathered): HistoryPage => {
        const page: HistoryPage = { contextId, exchanges: [...gathered.exchanges].reverse() };
        if (gathered.before !== undefined) page.before = encodeCursor(gathered.before);
        return page;
      }),
    );
  });
}

/** The listing taken in page by page ({@link takePage}) until the history page is done; no page more is asked for. */
function gather(
  port: A2APort,
  contextId: string,
  cursor: HistoryCursor | undefined,
  bounds: HistoryBounds,
  listing: { maxPages: number; requestTimeoutMs: number },
): Observable<Gathered> {
  const request = { historyLength: HISTORY_MESSAGES, includeArtifacts: true, ...(cursor?.token ? { pageToken: cursor.token } : {}) };
  // No bound on the tasks read: the pages are, and so is each answer's size (the port's); a cut page would lose the cursor's place.
  const pages = threadPages(port, contextId, request, { ...listing, pageSize: bounds.pageSize, maxTasks: Number.MAX_SAFE_INTEGER });
  return pages.pipe(
    scan((gathered: Gathered, page, index) => takePage(gathered, page, index === 0 ? cursor : undefined, bounds), NOTHING_GATHERED),
    takeWhile((gathered) => !gathered.done, true),
    last(),
  );
}

/** A history's error, naming the agent; an agent without ListTasks says what that means here. */
function named(error: A2AError, agent: string): A2AError {
  if (!isA2AError(error, 'unsupported') || error.operation !== 'list-tasks') return naming(error, agent, 'list-tasks');
  return new A2AError({
    kind: 'unsupported',
    operation: 'list-tasks',
    agent,
    message: `${agent} cannot list a conversation's tasks (ListTasks is A2A v1.0): it shows no history (${error.message})`,
    cause: error,
  });
}

function whole(name: string, value: number | undefined, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (Number.isInteger(value) && value >= 1 && value <= max) return value;
  throw new A2AError({ kind: 'input', operation: 'list-tasks', message: `${name} must be a whole number from 1 to ${max}` });
}
