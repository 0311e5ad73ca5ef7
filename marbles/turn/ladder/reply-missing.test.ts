import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { EndEvent, TurnEvent } from '../../../src/port/events.js';
import type { Task } from '../../../src/port/types.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { runTurn } from '../../../src/turn/turn.js';
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
const events = { t: ev.task('T', 'working'), c: ev.status('T', 'completed'), a: chunk, b: empty };
const labels = { ...shared, x: 'end completed "" [unread]', y: 'end completed "" [artifacts-empty]' };
const broken = new A2AError({ kind: 'network', retryable: true, operation: 'get-task', message: 'socket hang up' });
const withReply: Task = { ...task('T', 'completed'), artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] };
const withEmpty: Task = { ...task('T', 'completed'), artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: '' }] }] };
/** The quiet after a bare final status is 250 ms under this idle bound. */
const slow = withPolicy({ idleTimeoutMs: 400 });
const getTasks = (calls: FakePortCall[]) => calls.filter((c) => c.method === 'getTask');

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

  it('300 ms after, the GetTask brings it → shown once, a plain success', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 299ms a', events);
      const getTask = cold('                 -(g|)', { g: withReply });
      const expected = '     s(tw)c 250ms (hE|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, slow)).toBe(expected, labels);
    });
  });

  it('500 ms after (past the idle bound), the GetTask fails → replyMissing unread', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 499ms a|', events);
      const getTask = cold<never>('                 -#', undefined, broken);
      const expected = '     s(tw)c 250ms (x|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, slow)).toBe(expected, labels);
    });
  });

  it('500 ms after, the GetTask brings it → shown once, a plain success', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 499ms a|', events);
      const getTask = cold('                 -(g|)', { g: withReply });
      const expected = '     s(tw)c 250ms (hE|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, slow)).toBe(expected, labels);
    });
  });

  it('a GetTask that never answers (its request bound, 20 ms) → replyMissing unread', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 299ms a', events);
      const getTask = cold<never>('                 -');
      const expected = '     s(tw)c 269ms (x|)';
      expectObservable(turn(agent({ stream, getTask }), { text: 'hi' }, slow)).toBe(expected, labels);
    });
  });
});

describe('a late reply under a short idle bound (30 ms: the quiet is 30 ms)', () => {
  it('20 ms after the final status: shown once from the stream', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 19ms a', events);
      const expected = '     s(tw)c 19ms h 29ms (E|)';
      expectObservable(turn(agent({ stream }))).toBe(expected, labels);
    });
  });

  it('40 ms after, the GetTask fails → replyMissing unread', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c 39ms a', events);
      const getTask = cold<never>('              -#', undefined, broken);
      const expected = '     s(tw)c 30ms (x|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });
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

  it('a completed task that read back says nothing at all: a plain empty success (the agent said nothing)', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c|', events);
      const getTask = cold('       -(g|)', { g: task('T', 'completed') });
      const expected = '     s(tw)c-(e|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });

  it('artifacts with no text, file or data part, streamed and read back → replyMissing artifacts-empty', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c-b|', events);
      const getTask = cold('         -(g|)', { g: withEmpty });
      const expected = '     s(tw)c---(y|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });

  it('artifacts listed only by the task read back, with nothing in them → replyMissing artifacts-empty', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c|', events);
      const getTask = cold('       -(g|)', { g: withEmpty });
      const expected = '     s(tw)c-(y|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });

  it('only partial chunks (their whole never came), read back with nothing more → the preview shown, replyMissing artifacts-empty', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const d = ev.artifact('T', 'A', 'o', { metadata: { adk_partial: true } });
      const stream = cold('  -t---d-c|', { ...events, d });
      const getTask = cold('       -(g|)', { g: task('T', 'completed') });
      const expected = '     s(tw)p-c-(y|)';
      const preview = { p: 'status working "o"', c: 'status completed "o"' };
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, { ...labels, ...preview });
    });
  });

  it('empty artifacts and a failed read back → unread (the read says more: the reply may be there)', () => {
    marbles(({ cold, agent, expectObservable }) => {
      const stream = cold('  -t---c-b|', events);
      const getTask = cold<never>('         -#', undefined, broken);
      const expected = '     s(tw)c---(x|)';
      expectObservable(turn(agent({ stream, getTask }))).toBe(expected, labels);
    });
  });

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
      const stream = cold('  -t---f|', { ...events, f: ev.status('T', 'failed') });
      const expected = '     s(tw)f(F|)';
      expectObservable(turn(agent({ stream }))).toBe(expected, { ...labels, f: 'status failed', F: 'end failed ""' });
    });
  });
});
