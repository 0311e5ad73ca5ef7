import { concat, concatMap, defer, of, type Observable } from 'rxjs';
import { listTasksOf, type A2APort, type ListTasksOptions, type TaskPage } from '../../port/port.js';
import type { Task } from '../../port/types.js';
import { ownTasks } from '../thread-guard.js';
import { withinFrom } from '../within.js';

/** How far a thread's `ListTasks` is followed. */
export interface ListingBounds {
  /** Tasks asked for per page. */
  pageSize: number;
  /** Pages read at most (a repeated `nextPageToken` ends the listing before). */
  maxPages: number;
  /** Tasks read at most, over all pages (an agent may answer more than it was asked for). */
  maxTasks: number;
  /** Each page's request. */
  requestTimeoutMs: number;
  /** When the pages' clocks may start (a lookup started beside the card: at its arrival); at once when absent. */
  clockFrom?: Observable<unknown>;
}

/** One page of a thread's listing, its strangers left out. */
export interface ThreadPage {
  /** The page's tasks that carry the thread's contextId, in the agent's order. */
  tasks: Task[];
  /**
   * How the listing stands after this page: `more` (another page follows), `end` (the agent said
   * this is the last page), `cut` (the agent has more, but the bounds end the listing here: too
   * many pages, or a token the agent gave before).
   */
  after: 'more' | 'end' | 'cut';
  /** The token this page was asked for with; absent for the first page. */
  token?: string;
  /**
   * The agent's token of the page after this one, when it gave one that this listing did not follow
   * before and the page was read whole (present on `more`, and on a `cut` by the bound on pages, or on
   * tasks at the page's end).
   */
  next?: string;
}

/**
 * A conversation's tasks as the agent lists them, page after page (`nextPageToken`), newest first as
 * it orders them: lazily (a consumer that has what it needs stops the paging), bounded in pages, each
 * page bounded in time. Every task is checked: one that does not carry `contextId` is skipped, never
 * followed (an agent may ignore the filter). An agent without ListTasks fails with `unsupported`.
 * A `pageToken` in `request` starts the listing at that page (a token an earlier listing handed out).
 */
export function threadPages(
  port: A2APort,
  contextId: string,
  request: Omit<ListTasksOptions, 'pageSize'>,
  bounds: ListingBounds,
): Observable<ThreadPage> {
  const { pageToken: start, ...rest } = request;
  const page = (pageToken: string | undefined): Observable<TaskPage> =>
    listTasksOf(port, contextId, { ...rest, pageSize: bounds.pageSize, ...(pageToken ? { pageToken } : {}) }).pipe(
      withinFrom<TaskPage>(bounds.clockFrom, bounds.requestTimeoutMs, 'poll-request', 'list-tasks'),
    );
  /** A page as read: its number, the tasks read before it, the tokens followed to it (the last one its own). */
  interface Read {
    page: TaskPage;
    number: number;
    before: number;
    tokens: ReadonlySet<string>;
    token: string | undefined;
  }
  const read = (page: TaskPage, number: number, before: number, tokens: ReadonlySet<string>, token: string | undefined): Read => ({
    page,
    number,
    before,
    tokens,
    token,
  });
  const after = ({ page: { nextPageToken, tasks }, number, before, tokens }: Read): ThreadPage['after'] => {
    const over = before + tasks.length >= bounds.maxTasks;
    if (!nextPageToken) return over && before + tasks.length > bounds.maxTasks ? 'cut' : 'end';
    return over || number >= bounds.maxPages || tokens.has(nextPageToken) ? 'cut' : 'more';
  };
  // Each next page is asked for only once this one was taken (`concat`): a consumer that found what it needs asks no more.
  const from = (at: Read): Observable<ThreadPage> => {
    const state = after(at);
    const tasks = at.page.tasks.slice(0, Math.max(0, bounds.maxTasks - at.before));
    // A page cut short by maxTasks names no next page: going on from there would skip the tasks cut.
    const whole = tasks.length === at.page.tasks.length;
    const next = whole && at.page.nextPageToken && !at.tokens.has(at.page.nextPageToken) ? at.page.nextPageToken : undefined;
    const here = of<ThreadPage>({
      tasks: ownTasks(tasks, contextId),
      after: state,
      ...(at.token === undefined ? {} : { token: at.token }),
      ...(next === undefined ? {} : { next }),
    });
    if (state !== 'more') return here;
    const token = next!;
    const tokens = new Set(at.tokens).add(token);
    const before = at.before + tasks.length;
    return concat(here, defer(() => page(token)).pipe(concatMap((page) => from(read(page, at.number + 1, before, tokens, token)))));
  };
  const first = start || undefined;
  return page(first).pipe(concatMap((page) => from(read(page, 1, 0, new Set(first === undefined ? [] : [first]), first))));
}
