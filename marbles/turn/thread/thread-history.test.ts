import { map, tap } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { HistoryPage } from '../../../src/port/history.js';
import type { A2APort, TaskPage } from '../../../src/port/port.js';
import type { AgentMessage, Artifact, Part, Task, TaskState } from '../../../src/port/types.js';
import { agentMessage, createFakePort, task, testCard, type FakePortCall } from '../../../src/testing/index.js';
import { threadPages } from '../../../src/turn/thread/listing.js';
import { threadHistory, type ThreadHistoryOptions } from '../../../src/turn/thread/thread-history.js';
import { a2aError, marbles, options, type Kit } from '../../helpers.js';

// The thread's contextId is 'C'; 'B' is another thread's.
const PNG = Uint8Array.from([0x89, 0x50, 0x4e, 0x47]);
const chart: Part = { kind: 'file', name: 'chart.png', mediaType: 'image/png', bytes: PNG };
const text = (value: string): Part => ({ kind: 'text', text: value });
const reply = (...parts: Part[]): Artifact[] => [{ artifactId: 'A', parts }];

/** A listed task of the thread: its state, reply artifacts, status message, history and timestamp. */
function listed(
  id: string,
  state: TaskState,
  extra: { artifacts?: Artifact[]; message?: string; history?: AgentMessage[]; contextId?: string } = {},
): Task {
  const snapshot = task(id, state, { contextId: extra.contextId ?? 'C', ...extra });
  snapshot.status.timestamp = `2026-01-01T00:00:0${id.slice(-1)}Z`;
  if (extra.history !== undefined) snapshot.history = extra.history;
  return snapshot;
}
const said = (value: string): AgentMessage => ({ ...agentMessage(value, 'user'), messageId: `m-${value}` });
const page = (tasks: Task[], nextPageToken?: string): TaskPage => (nextPageToken ? { tasks, nextPageToken } : { tasks });
const lists = (calls: FakePortCall[]) => calls.flatMap((c) => (c.method === 'listTasks' ? [c.options] : []));
const history = (port: A2APort, extra: ThreadHistoryOptions = {}) => threadHistory(port, 'C', { policy: options.policy, ...extra });
/** Subscribes `history(port, extra)` in the run, expecting `diagram` ('p': the page); the page, read after the run. */
function read(kit: Kit, port: A2APort, extra: ThreadHistoryOptions, diagram: string): () => HistoryPage {
  let got: HistoryPage | undefined;
  kit.expectObservable(history(port, extra).pipe(tap((value) => (got = value)))).toBe(diagram, { p: expect.anything() });
  return () => got!;
}
const ids = (p: HistoryPage) => p.exchanges.map((e) => e.taskId);

/** What a page shows, in a line per exchange: the task, the person's first text, the reply, the outcome. */
const shown = (p: HistoryPage) => p.exchanges.map((e) => `${e.taskId} ${e.user[0]?.text ?? '-'} → ${e.reply} [${e.outcome ?? e.state}]`);

describe("a thread's history, rebuilt from the agent's tasks", () => {
  it('one page: oldest first, each reply as a turn ends it (artifacts, a question, an answer kept in history), outcomes, times', () => {
    let result: HistoryPage | undefined;
    const calls = marbles(({ cold, agent, expectObservable, cardReadOnce }) => {
      const listTasks = cold('-(l|)', {
        l: page([
          listed('T4', 'working', { artifacts: reply(text('par')), history: [said('slow')] }),
          listed('T3', 'input-required', { message: 'Which city?', history: [said('book')] }),
          listed('T2', 'completed', { artifacts: reply(text('Here: '), chart), history: [said('chart')] }),
          listed('T1', 'completed', { history: [said('hi'), agentMessage('hello')] }),
        ]),
      });
      const port = agent({ listTasks });
      expectObservable(history(port).pipe(tap((value) => (result = value)))).toBe('-(p|)', { p: expect.anything() });
      cardReadOnce();
      return port.calls;
    });
    expect(shown(result!)).toEqual([
      'T1 hi → hello [completed]',
      'T2 chart → Here:  [completed]',
      'T3 book → Which city? [input-required]',
      'T4 slow → par [working]',
    ]);
    expect(result!.exchanges[1]).toMatchObject({ attachments: [{ kind: 'file', name: 'chart.png', size: 4, bytes: PNG }] });
    expect(result!.exchanges[0]).toMatchObject({ timestamp: '2026-01-01T00:00:01Z', user: [{ text: 'hi', messageId: 'm-hi' }] });
    expect(result!.exchanges[3]!.outcome).toBeUndefined();
    expect(result!.before).toBeUndefined();
    expect(lists(calls)[0]).toEqual({ pageSize: 20, historyLength: 20, includeArtifacts: true });
  });
});

describe('load earlier: the cursor a page hands back', () => {
  // The agent's pages: T5 T4 T3 (more than the 2 asked for), then T2 T1 on the page of token p2.
  const first = (...more: Task[]) => page([...more, listed('T5', 'completed'), listed('T4', 'completed'), listed('T3', 'completed')], 'p2');
  const second = page([listed('T2', 'completed'), listed('T1', 'completed')]);

  it('newest first: the limit fills, the cursor points into the page, each next page goes on where the last ended', () => {
    const got = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: first() }) });
      const one = read(kit, port, { limit: 2 }, '-(p|)');
      return { one, calls: port.calls };
    });
    expect(ids(got.one())).toEqual(['T4', 'T5']);
    const before = got.one().before!;
    expect(before).toMatch(/^h1\.[\w-]+$/);
    const two = marbles((kit) => {
      const listTasks = [kit.cold('-(l|)', { l: first() }), kit.cold('-(l|)', { l: second })];
      const port = kit.agent({ listTasks });
      return { page: read(kit, port, { limit: 2, before }, '--(p|)'), calls: port.calls };
    });
    expect(ids(two.page())).toEqual(['T2', 'T3']);
    // The cursor's page is asked for again with the same size; then the agent's next one.
    expect(lists(two.calls).map((o) => [o?.pageToken, o?.pageSize])).toEqual([
      [undefined, 2],
      ['p2', 2],
    ]);
    const three = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: second }) });
      return { page: read(kit, port, { limit: 2, before: two.page().before! }, '-(p|)'), calls: port.calls };
    });
    expect(ids(three.page())).toEqual(['T1']);
    expect(three.page().before).toBeUndefined();
    expect(lists(three.calls).map((o) => o?.pageToken)).toEqual(['p2']);
  });

  it('a task that arrived since (newer ones move the page): the cursor finds its place by the last task shown, none is shown twice', () => {
    const { one } = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: first() }) });
      return { one: read(kit, port, { limit: 2 }, '-(p|)') };
    });
    const moved = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: first(listed('T6', 'working')) }) });
      return read(kit, port, { limit: 1, before: one().before! }, '-(p|)');
    });
    expect(ids(moved())).toEqual(['T3']);
  });

  it('an agent that answers fewer tasks than asked: its pages are followed until the limit, and no page more is asked for', () => {
    const got = marbles((kit) => {
      const listTasks = [
        kit.cold('-(l|)', { l: page([listed('T5', 'completed')], 'p2') }),
        kit.cold('-(l|)', { l: page([listed('T4', 'completed')], 'p3') }),
        kit.cold('-(l|)', { l: page([listed('T3', 'completed')], 'p4') }),
        kit.cold('-(l|)', { l: page([listed('T2', 'completed')]) }),
      ];
      const port = kit.agent({ listTasks });
      const p = read(kit, port, { limit: 3 }, '---(p|)');
      kit.expectSubscriptions(listTasks[3]!.subscriptions).toBe([]);
      return { p, calls: port.calls };
    });
    expect(ids(got.p())).toEqual(['T3', 'T4', 'T5']);
    expect(lists(got.calls)).toHaveLength(3);
    const next = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: page([listed('T2', 'completed')]) }) });
      return { p: read(kit, port, { limit: 3, before: got.p().before! }, '-(p|)'), calls: port.calls };
    });
    expect(lists(next.calls)[0]).toMatchObject({ pageToken: 'p4', pageSize: 3 });
    expect(ids(next.p())).toEqual(['T2']);
  });

  it('a cursor that is not one a page handed out: an input error before any request', () => {
    for (const before of ['h1.bm90IGpzb24', 'anything', 'h1.' + btoa(JSON.stringify({ s: 500, o: 0 }))]) {
      const calls = marbles((kit) => {
        const port = kit.agent({});
        kit.expectObservable(history(port, { before })).toBe('#', undefined, a2aError({ kind: 'input' }));
        return port.calls;
      });
      expect(calls).toEqual([]);
    }
  });
});

describe('bounds and doors', () => {
  it("another thread's tasks (an agent that ignores the filter) are never shown, nor counted", () => {
    const got = marbles((kit) => {
      const listTasks = kit.cold('-(l|)', {
        l: page([
          listed('TB', 'completed', { contextId: 'B', message: 'B secret' }),
          listed('T1', 'completed', { message: 'ok' }),
          task('TX', 'completed'),
        ]),
      });
      return read(kit, kit.agent({ listTasks }), { limit: 1 }, '-(p|)');
    });
    expect(shown(got())).toEqual(['T1 - → ok [completed]']);
    expect(JSON.stringify(got())).not.toContain('B secret');
  });

  it('the bytes of a page: it ends before the exchange that would pass maxBytes (the first goes in whatever its size)', () => {
    const tasks = [listed('T3', 'completed', { message: 'x'.repeat(30) }), listed('T2', 'completed', { message: 'y'.repeat(8) })];
    const got = marbles((kit) => read(kit, kit.agent({ listTasks: kit.cold('-(l|)', { l: page(tasks) }) }), { maxBytes: 10 }, '-(p|)'));
    expect(ids(got())).toEqual(['T3']);
    expect(got().before).toBeDefined();
  });

  it('a reply past the policy’s bounds is that exchange’s error; the others show', () => {
    const tasks = [listed('T2', 'completed', { message: 'short' }), listed('T1', 'completed', { message: 'far too long a reply' })];
    const got = marbles((kit) => {
      const port = kit.agent({ listTasks: kit.cold('-(l|)', { l: page(tasks) }) });
      return read(kit, port, { policy: { ...options.policy, maxReplyChars: 10 } }, '-(p|)');
    });
    expect(got().exchanges.map((e) => [e.taskId, e.reply, e.error?.kind])).toEqual([
      ['T1', '', 'protocol'],
      ['T2', 'short', undefined],
    ]);
  });

  it('each ListTasks within poll.requestTimeoutMs: an agent that does not answer is a timeout error naming it', () => {
    marbles((kit) => {
      const listTasks = kit.cold<TaskPage>('-');
      const port = kit.agent({ listTasks });
      const timeout = a2aError({ kind: 'timeout', phase: 'poll-request', agent: 'http://127.0.0.1/' });
      kit.expectObservable(history(port)).toBe('20ms #', undefined, timeout);
      kit.expectSubscriptions(listTasks.subscriptions).toBe('^ 19ms !');
    });
  });

  it('pages past maxPages: what was read, and the cursor of the next page; a token the agent gave before: no cursor', () => {
    const cut = marbles((kit) => {
      const listTasks = [
        kit.cold('-(l|)', { l: page([listed('T5', 'completed')], 'p2') }),
        kit.cold('-(l|)', { l: page([listed('T4', 'completed')], 'p3') }),
      ];
      return read(kit, kit.agent({ listTasks }), { maxPages: 2 }, '--(p|)');
    });
    expect(ids(cut())).toEqual(['T4', 'T5']);
    expect(cut().before).toBeDefined();
    const looping = marbles((kit) => {
      const listTasks = [
        kit.cold('-(l|)', { l: page([listed('T5', 'completed')], 'p2') }),
        kit.cold('-(l|)', { l: page([listed('T4', 'completed')], 'p2') }),
      ];
      return read(kit, kit.agent({ listTasks }), {}, '--(p|)');
    });
    expect(ids(looping())).toEqual(['T4', 'T5']);
    expect(looping().before).toBeUndefined();
  });

  it('an agent without ListTasks (v0.3): an unsupported error that says there is no history', () => {
    marbles((kit) => {
      const { listTasks: _none, ...port } = createFakePort({ card: () => kit.cold('(c|)', { c: testCard() }) });
      const unsupported = a2aError({ kind: 'unsupported', message: expect.stringContaining('no history') });
      kit.expectObservable(history(port)).toBe('#', undefined, unsupported);
    });
  });

  it('limit, maxBytes and maxPages are checked: an input error before any request', () => {
    for (const bad of [{ limit: 0 }, { limit: 101 }, { limit: 2.5 }, { maxBytes: -1 }, { maxPages: 0 }]) {
      const calls = marbles((kit) => {
        const port = kit.agent({});
        kit.expectObservable(history(port, bad)).toBe('#', undefined, a2aError({ kind: 'input' }));
        return port.calls;
      });
      expect(calls).toEqual([]);
    }
  });
});

describe('the listing under the history', () => {
  it('a page cut short by maxTasks names no next page: going on from it would skip the tasks cut', () => {
    const bounds = { pageSize: 2, requestTimeoutMs: 20 };
    const tasks = [listed('T3', 'completed'), listed('T2', 'completed'), listed('T1', 'completed')];
    marbles(({ cold, agent, expectObservable }) => {
      const listTasks = cold('-(l|)', { l: page(tasks, 'p2') });
      const pages = (maxTasks: number, maxPages: number) =>
        threadPages(agent({ listTasks }), 'C', {}, { ...bounds, maxTasks, maxPages }).pipe(map((p) => [p.after, p.next ?? '-']));
      expectObservable(pages(2, 10)).toBe('-(p|)', { p: ['cut', '-'] });
      // Cut by the bound on pages, the page read whole: the next page is where to go on.
      expectObservable(pages(3, 1)).toBe('-(p|)', { p: ['cut', 'p2'] });
    });
  });
});
