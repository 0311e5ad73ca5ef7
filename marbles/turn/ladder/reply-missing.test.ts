import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { EndEvent, TurnEvent } from '../../../src/port/events.js';
import type { Task } from '../../../src/port/types.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { runTurn, type LadderOptions } from '../../../src/turn/turn.js';
import { labels as shared, marbles, options, turn, withPolicy } from '../../helpers.js';

/**
 * A completed task whose reply the turn did not get is never a plain success: the `end` says why
 * (`replyMissing`). The agent's late reply (`@reactive-agents/a2a` 0.9.0 sends its final status
 * first) at every delay: inside the quiet after the final status (read, shown once), after it or
 * past the idle bound (the stream was left: the GetTask at the bare end brings it, shown once, or
 * fails, and the end says the reply was not read).
 */
const chunk = ev.artifact('T', 'A', 'ok', { lastChunk: true });
const empty = ev.artifact('T', 'A', '', { lastChunk: true });
/** A partial chunk: its whole never comes. */
const partial = ev.artifact('T', 'A', 'o', { metadata: { adk_partial: true } });
const events = { t: ev.task('T', 'working'), c: ev.status('T', 'completed'), f: ev.status('T', 'failed'), a: chunk, b: empty, d: partial };
const labels = { ...shared, x: 'end completed "" [unread]', y: 'end completed "" [artifacts-empty]' };
const broken = new A2AError({ kind: 'network', retryable: true, operation: 'get-task', message: 'socket hang up' });
const withReply: Task = { ...task('T', 'completed'), artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] };
const withEmpty: Task = { ...task('T', 'completed'), artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: '' }] }] };
/** The quiet after a bare final status is 250 ms under this idle bound. */
const slow = withPolicy({ idleTimeoutMs: 400 });
const getTasks = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'getTask');

/**
 * A streamed turn whose reply is read back: the stream draws {@link events}; GetTask, when the case
 * scripts it, answers `g` (the case's `read`) or fails with {@link broken} at `#`. The case's
 * `values` add to (or change) the letters of `expected`.
 */
interface ReadBackCase {
  title: string;
  stream: string;
  getTask?: string;
  read?: Task;
  expected: string;
  values?: Record<string, string>;
}

/** One test per case, each under its own title, the turn run with `ladder`. */
function readBackCases(ladder: LadderOptions, cases: ReadBackCase[]): void {
  for (const { title, stream, getTask, read, expected, values } of cases) {
    it(title, () => {
      marbles(({ cold, agent, expectObservable }) => {
        const script = { stream: cold(stream, events), getTask: getTask === undefined ? undefined : cold(getTask, { g: read! }, broken) };
        expectObservable(turn(agent(script), { text: 'hi' }, ladder)).toBe(expected, { ...labels, ...values });
      });
    });
  }
}

describe('a late reply, at every delay (quiet 250 ms, idle bound 400 ms)', () => {
  it('100 ms after the final status (inside the quiet): read from the stream, shown once; no GetTask, no flag', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 99ms a', events);
      const expected = '     s(tw)c 99ms h 249ms (E|)';
      const port = agent({ stream });
      expectObservable(turn(port, { text: 'hi' }, slow)).toBe(expected, labels);
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([]);
  });

  it('300 ms after (the stream left at 250 ms), the GetTask fails → completed, no text, replyMissing unread; the late reply never shown', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('  -t---c 299ms a', events);
      const streamSubs = '   ^ 254ms !';
      const getTask = cold<never>('                 -#', undefined, broken);
      const expected = '     s(tw)c 250ms (x|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, slow)).toBe(expected, labels);
      expectSubscriptions(stream.subscriptions).toBe(streamSubs);
    });
  });

  readBackCases(slow, [
    {
      title: '300 ms after, the GetTask brings it → shown once, a plain success',
      stream: '  -t---c 299ms a',
      getTask: '              -(g|)',
      read: withReply,
      expected: 's(tw)c 250ms (hE|)',
    },
    {
      title: '500 ms after (past the idle bound), the GetTask fails → replyMissing unread',
      stream: '  -t---c 499ms a|',
      getTask: '              -#',
      expected: 's(tw)c 250ms (x|)',
    },
    {
      title: '500 ms after, the GetTask brings it → shown once, a plain success',
      stream: '  -t---c 499ms a|',
      getTask: '              -(g|)',
      read: withReply,
      expected: 's(tw)c 250ms (hE|)',
    },
    {
      title: 'a GetTask that never answers (its request bound, 20 ms) → replyMissing unread',
      stream: '  -t---c 299ms a',
      getTask: '              -',
      expected: 's(tw)c 269ms (x|)',
    },
  ]);
});

describe('a late reply under a short idle bound (30 ms: the quiet is 30 ms)', () => {
  readBackCases(options, [
    {
      title: '20 ms after the final status: shown once from the stream',
      stream: '  -t---c 19ms a',
      expected: 's(tw)c 19ms h 29ms (E|)',
    },
    {
      title: '40 ms after, the GetTask fails → replyMissing unread',
      stream: '  -t---c 39ms a',
      getTask: '             -#',
      expected: 's(tw)c 30ms (x|)',
    },
  ]);
});

describe('what the end says of a missing reply', () => {
  it("the end carries the GetTask's failure as the cause, and nothing else changes", () => {
    const seen: TurnEvent[] = [];
    marbles(({ cold, agent }) => {
      const stream = cold('-t---c', events);
      const getTask = cold<never>('-#', undefined, broken);
      runTurn(agent({ stream, getTask }), { text: 'hi' }, options).subscribe((event) => seen.push(event));
    });
    const end = seen.at(-1) as EndEvent;
    expect(end).toEqual({
      type: 'end',
      outcome: 'completed',
      text: '',
      taskId: 'T',
      replyMissing: { reason: 'unread', cause: expect.objectContaining({ kind: 'network', message: 'socket hang up' }) },
    });
    expect(seen.filter((e) => e.type === 'text')).toEqual([]);
  });

  readBackCases(options, [
    {
      title: 'a completed task that read back says nothing at all: a plain empty success (the agent said nothing)',
      stream: '  -t---c|',
      getTask: '        -(g|)',
      read: task('T', 'completed'),
      expected: 's(tw)c-(e|)',
    },
    {
      title: 'artifacts with no text, file or data part, streamed and read back → replyMissing artifacts-empty',
      stream: '  -t---c-b|',
      getTask: '          -(g|)',
      read: withEmpty,
      expected: 's(tw)c---(y|)',
    },
    {
      title: 'artifacts listed only by the task read back, with nothing in them → replyMissing artifacts-empty',
      stream: '  -t---c|',
      getTask: '        -(g|)',
      read: withEmpty,
      expected: 's(tw)c-(y|)',
    },
    {
      title: 'only partial chunks (their whole never came), read back with nothing more → the preview shown, replyMissing artifacts-empty',
      stream: '  -t---d-c|',
      getTask: '        -(g|)',
      read: task('T', 'completed'),
      expected: 's(tw)p-c-(y|)',
      values: { p: 'status working "o"', c: 'status completed "o"' },
    },
    {
      title: 'empty artifacts and a failed read back → unread (the read says more: the reply may be there)',
      stream: '  -t---c-b|',
      getTask: '          -#',
      expected: 's(tw)c---(x|)',
    },
  ]);

  it('a blocking send answered completed with nothing, whose read back fails → replyMissing unread', () => {
    marbles(({ cold, agent, blockingCard, expectObservable }) => {
      const send = cold('-(k|)', { k: { kind: 'task' as const, task: task('T', 'completed') } });
      const getTask = cold<never>('  ----#', undefined, broken);
      const expected = '   s(tc)(x|)';
      expectObservable(turn(agent({ card: blockingCard, send, getTask }))).toBe(expected, labels);
    });
  });

  it('a reply shown, then a final status: no GetTask, no flag (a 1.0 agent that answers sees no change)', () => {
    const calls = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---a-c|', events);
      const expected = '     s(tw)h-(cE|)';
      const port = agent({ stream });
      expectObservable(turn(port)).toBe(expected, labels);
      return port.calls;
    });
    expect(getTasks(calls)).toEqual([]);
  });

  it('a failed task with nothing shown: no GetTask, no flag (only a completed end can miss its reply)', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---f|', events);
      const expected = '     s(tw)f(F|)';
      expectObservable(turn(agent({ stream }))).toBe(expected, { ...labels, f: 'status failed', F: 'end failed ""' });
    });
  });
});
