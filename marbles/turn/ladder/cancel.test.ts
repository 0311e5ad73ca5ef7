import { describe, expect, it, vi } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { Logger } from '../../../src/logger.js';
import type { AgentEvent } from '../../../src/port/types.js';
import { ev, task } from '../../../src/testing/index.js';
import { a2aError, labels, marbles, options, turn, withPolicy } from '../../helpers.js';

const working = { a: ev.task('T', 'working') };
const canceled = { x: task('T', 'canceled') };

type LogFn = (fields: Record<string, unknown>, message: string) => void;

function spyLogger() {
  return { debug: vi.fn<LogFn>(), info: vi.fn<LogFn>(), warn: vi.fn<LogFn>(), error: vi.fn<LogFn>() } satisfies Logger;
}

/**
 * A streamed turn left at frame 4, its task working, with a spy logger: CancelTask answers as
 * `cancel` draws (`#` its `fails`) and is subscribed as `cancelSubs` says. Returns the logger.
 */
function leftMidStream(cancel: string, fails: unknown, cancelSubs: string): ReturnType<typeof spyLogger> {
  const logger = spyLogger();
  marbles(({ cold, agent, expectTurn }) => {
    const stream = cold('   -a', working);
    const streamSubs = '    ^---!';
    const unsub = '         ^---!';
    const expected = '      s(tw)';
    const answer = cold<never>(cancel, undefined, fails);
    expectTurn(turn(agent({ stream, cancel: answer }), { text: 'hi' }, { ...options, logger }), expected, [
      [stream, streamSubs],
      [answer, cancelSubs],
    ], { unsub });
  });
  return logger;
}

/**
 * A streamed turn abandoned (left at `unsub`, or failed): each case draws the stream (`a` the task
 * working, `b` completed, `#` its `fails`) and CancelTask's answer with their subscriptions, and the
 * turn's events; `cancelledOnce` cases also read the port's calls for exactly one CancelTask of T.
 */
interface AbandonCase {
  title: string;
  stream: string;
  fails?: unknown;
  streamSubs: string;
  cancel: string;
  cancelSubs: string | string[];
  unsub?: string;
  expected: string;
  error?: unknown;
  cancelledOnce?: true;
}

const malformed = new A2AError({ kind: 'protocol', message: 'malformed event: status.state' });

const abandonCases: AbandonCase[] = [
  {
    title: 'on unsubscribe mid-stream: the stream is unsubscribed and CancelTask is sent once, outliving the teardown',
    stream: '    -a------',
    streamSubs: '^-----!',
    cancel: '          --(x|)',
    cancelSubs: '------^-!',
    unsub: '     ^-----!',
    expected: '  s(tw)',
    cancelledOnce: true,
  },
  {
    title: 'after the end: no CancelTask',
    stream: '    -a----b|',
    streamSubs: '^------!',
    cancel: '    (x|)',
    cancelSubs: [],
    unsub: '     ^----------!',
    // GetTask is not scripted: the completed task's reply is not read back.
    expected: '  s(tw)-c(U|)',
  },
  {
    title: 'left before the task is known: the stream is read on until the agent names its task, then CancelTask once',
    stream: '    -----a',
    streamSubs: '^----!',
    cancel: '         --(x|)',
    cancelSubs: '-----^-!',
    unsub: '     ^--!',
    expected: '  s',
    cancelledOnce: true,
  },
  {
    title: 'left before the task is known, and it is never named: read on for cancelTimeoutMs, then aborted; nothing to cancel',
    stream: '    -',
    streamSubs: '^ 22ms !',
    cancel: '    (x|)',
    cancelSubs: [],
    unsub: '     ^--!',
    expected: '  s',
  },
  {
    title: 'when the turn errors with the task unsettled: CancelTask once',
    stream: '    -a---#',
    fails: malformed,
    streamSubs: '^----!',
    cancel: '         (x|)',
    cancelSubs: '-----(^!)',
    expected: '  s(tw)#',
    error: malformed,
  },
];

describe('cancel: abort and CancelTask when the turn is abandoned', () => {
  for (const { title, stream: streamDiagram, fails, streamSubs, cancel: cancelDiagram, cancelSubs, unsub, expected, error, cancelledOnce } of abandonCases) {
    it(title, () => {
      const calls = marbles(({ cold, agent, expectTurn }) => {
        const stream = cold<AgentEvent>(streamDiagram, { ...working, b: ev.status('T', 'completed') }, fails);
        const cancel = cold(cancelDiagram, canceled);
        const port = agent({ stream, cancel });
        expectTurn(turn(port), expected, [[stream, streamSubs], [cancel, cancelSubs]], { unsub, error });
        return port.calls;
      });
      if (cancelledOnce) expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
    });
  }

  it('a first request that failed before the task was named leaves nothing to read on: no background wait for close()', () => {
    const tracked: unknown[] = [];
    const refused = new A2AError({ kind: 'auth', status: 401, message: 'the agent refused the credentials' });
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('--#', undefined, refused);
      const cancel = cold('  (x|)', canceled);
      const expected = '     s-#';
      const ladder = { ...options, onCancel: (s: unknown) => tracked.push(s) };
      expectTurn(turn(agent({ stream, cancel }), { text: 'hi' }, ladder), expected, [[stream, '^-!'], [cancel, []]], { error: refused });
    });
    expect(tracked).toEqual([]);
  });

  it('a blocking send left before it answered is read on too: its task is cancelled when it arrives', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    ----(a|)', working);
      const sendSubs = '     ^---!';
      const cancel = cold('      -(x|)', canceled);
      const cancelSubs = '   ----^!';
      const unsub = '        ^-!';
      const expected = '     s';
      const port = agent({ card: blockingCard, send, cancel });
      expectTurn(turn(port), expected, [[send, sendSubs], [cancel, cancelSubs]], { unsub, card: blockingCard });
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('on the turn deadline: the stream is aborted, CancelTask is sent once, and the turn errors with a timeout', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a', working);
      const streamSubs = '   ^---- 95ms !';
      const cancel = cold('             -(x|)', canceled);
      const cancelSubs = '   ----- 95ms ^!';
      const expected = '     s(tw) 95ms #';
      const deadline = withPolicy({ turnTimeoutMs: 100, idleTimeoutMs: 500 });
      expectTurn(turn(agent({ stream, cancel }), { text: 'hi' }, deadline), expected, [
        [stream, streamSubs],
        [cancel, cancelSubs],
      ], { error: a2aError({ kind: 'timeout', phase: 'turn', retryable: false }) });
    });
  });

  it('a failed CancelTask is logged, not thrown', () => {
    const refused = new A2AError({ kind: 'network', message: 'refused' });
    const logger = leftMidStream('-#', refused, '----^!');
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ taskId: 'T', kind: 'network' });
  });

  it('a CancelTask that hangs is bounded by its own deadline', () => {
    const logger = leftMidStream('-', undefined, '----^-------------------!');
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ kind: 'timeout' });
  });
});

describe('a host handing its turns over (detached)', () => {
  it('a turn left while detached sends no CancelTask and reads nothing on', () => {
    const calls = marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('-t----w----', { t: ev.task('T', 'submitted'), w: ev.status('T', 'working') });
      const cancel = cold('(c|)', { c: task('T', 'canceled') });
      const port = agent({ stream, cancel });
      expectObservable(turn(port, { text: 'hi' }, { ...options, detached: () => true }), '^-------!').toBe('s(tu)-w', labels);
      expectSubscriptions(stream.subscriptions).toBe('^-------!');
      expectSubscriptions(cancel.subscriptions).toBe([]);
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'stream']);
  });

  it('a turn left before its task was named while detached is not read on to cancel it', () => {
    marbles(({ cold, agent, expectObservable, expectSubscriptions }) => {
      const stream = cold('------t--', { t: ev.task('T', 'submitted') });
      const cancel = cold('(c|)', { c: task('T', 'canceled') });
      expectObservable(turn(agent({ stream, cancel }), { text: 'hi' }, { ...options, detached: () => true }), '^--!').toBe('s', labels);
      expectSubscriptions(stream.subscriptions).toBe('^--!');
      expectSubscriptions(cancel.subscriptions).toBe([]);
    });
  });
});
