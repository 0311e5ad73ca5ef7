import type { HistoryExchange } from '../../port/history.js';
import type { Task } from '../../port/types.js';
import { exchangeOf, exchangeSize, type ReplyLimits } from '../../render/exchange.js';
import type { HistoryCursor } from './history-cursor.js';
import type { ThreadPage } from './listing.js';

/** How much one history page takes: exchanges, their bytes, the agent's page size. */
export interface HistoryBounds {
  /** Exchanges at most. */
  limit: number;
  /** Bytes of the exchanges at most (see `exchangeSize`); the first exchange goes in whatever its size. */
  maxBytes: number;
  /** The `pageSize` every `ListTasks` of the page asks for. */
  pageSize: number;
  /** The bounds of each reply (the policy's). */
  reply: ReplyLimits;
}

/** A history page as its listing's pages are taken in. */
export interface Gathered {
  /** The exchanges so far, newest first (the agent's order). */
  exchanges: HistoryExchange[];
  /** Their bytes. */
  bytes: number;
  /** The page is full, or the listing ended. */
  done: boolean;
  /** Once done: where the earlier exchanges are, when anywhere. */
  before?: HistoryCursor;
}

/** Nothing gathered yet. */
export const NOTHING_GATHERED: Gathered = { exchanges: [], bytes: 0, done: false };

/**
 * The next listing page taken into a history page: its tasks of the thread, newest first, each as an
 * exchange, until the page holds `limit` exchanges or the next would pass `maxBytes`; `from` (the
 * caller's cursor, on the listing's first page) says where on the page to start. Done when full or
 * when the listing ended (the agent's last page, or its bounds); the cursor then names the first task
 * not taken: on this page (its token, how many of the thread's tasks on it were taken, the last of
 * them), or the agent's next page.
 */
export function takePage(gathered: Gathered, page: ThreadPage, from: HistoryCursor | undefined, bounds: HistoryBounds): Gathered {
  const { tasks } = page;
  const exchanges = [...gathered.exchanges];
  let bytes = gathered.bytes;
  const here = (offset: number): Gathered => ({ exchanges, bytes, done: true, before: cursorAt(page, tasks, offset, bounds.pageSize) });
  for (let i = from === undefined ? 0 : startOf(tasks, from); i < tasks.length; i++) {
    if (exchanges.length >= bounds.limit) return here(i);
    const exchange = exchangeOf(tasks[i]!, bounds.reply);
    const size = exchangeSize(exchange);
    if (exchanges.length > 0 && bytes + size > bounds.maxBytes) return here(i);
    exchanges.push(exchange);
    bytes += size;
  }
  if (page.after === 'more' && exchanges.length < bounds.limit) return { exchanges, bytes, done: false };
  // The page was taken whole: the earlier exchanges begin on the agent's next page, if it named one to follow.
  const next = page.after !== 'end' && page.next !== undefined ? { token: page.next, size: bounds.pageSize, offset: 0 } : undefined;
  return next === undefined ? { exchanges, bytes, done: true } : { exchanges, bytes, done: true, before: next };
}

/** Where on a page a cursor resumes: after its anchor when the page still lists it, else after `offset` of the thread's tasks. */
function startOf(tasks: readonly Task[], from: HistoryCursor): number {
  const anchored = from.anchor === undefined ? -1 : tasks.findIndex((task) => task.id === from.anchor);
  return anchored >= 0 ? anchored + 1 : Math.min(from.offset, tasks.length);
}

function cursorAt(page: ThreadPage, tasks: readonly Task[], offset: number, size: number): HistoryCursor {
  const cursor: HistoryCursor = { size, offset };
  if (page.token !== undefined) cursor.token = page.token;
  if (offset > 0) cursor.anchor = tasks[offset - 1]!.id;
  return cursor;
}
