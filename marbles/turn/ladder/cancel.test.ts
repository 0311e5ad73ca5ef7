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

describe('cancel: abort and CancelTask when the turn is abandoned', () => {
  it('on unsubscribe mid-stream: the stream is unsubscribed and CancelTask is sent once, outliving the teardown', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a------', working);
      const streamSubs = '   ^-----!';
      const cancel = cold('        --(x|)', canceled);
      const cancelSubs = '   ------^-!';
      const unsub = '        ^-----!';
      const expected = '     s(tw)';
      const port = agent({ stream, cancel });
      expectTurn(turn(port), expected, [[stream, streamSubs], [cancel, cancelSubs]], { unsub });
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('after the end: no CancelTask', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a----b|', { ...working, b: ev.status('T', 'completed') });
      const streamSubs = '   ^------!';
      const cancel = cold('  (x|)', canceled);
      const unsub = '        ^----------!';
      // GetTask is not scripted: the completed task's reply is not read back.
      const expected = '     s(tw)-c(U|)';
      expectTurn(turn(agent({ stream, cancel })), expected, [[stream, streamSubs], [cancel, []]], { unsub });
    });
  });

  it('left before the task is known: the stream is read on until the agent names its task, then CancelTask once', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -----a', working);
      const streamSubs = '   ^----!';
      const cancel = cold('       --(x|)', canceled);
      const cancelSubs = '   -----^-!';
      const unsub = '        ^--!';
      const expected = '     s';
      const port = agent({ stream, cancel });
      expectTurn(turn(port), expected, [[stream, streamSubs], [cancel, cancelSubs]], { unsub });
      return port.calls;
    });
    expect(calls.filter((c) => c.method === 'cancel')).toEqual([{ method: 'cancel', taskId: 'T' }]);
  });

  it('left before the task is known, and it is never named: read on for cancelTimeoutMs, then aborted; nothing to cancel', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<AgentEvent>('-');
      const streamSubs = '   ^ 22ms !';
      const cancel = cold('  (x|)', canceled);
      const unsub = '        ^--!';
      const expected = '     s';
      expectTurn(turn(agent({ stream, cancel })), expected, [[stream, streamSubs], [cancel, []]], { unsub });
    });
  });

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

  it('when the turn errors with the task unsettled: CancelTask once', () => {
    const malformed = new A2AError({ kind: 'protocol', message: 'malformed event: status.state' });
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---#', working, malformed);
      const streamSubs = '   ^----!';
      const cancel = cold('       (x|)', canceled);
      const cancelSubs = '   -----(^!)';
      const expected = '     s(tw)#';
      expectTurn(turn(agent({ stream, cancel })), expected, [[stream, streamSubs], [cancel, cancelSubs]], { error: malformed });
    });
  });

  it('a failed CancelTask is logged, not thrown', () => {
    const logger = spyLogger();
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('   -a', working);
      const streamSubs = '    ^---!';
      const cancel = cold<never>('-#', undefined, new A2AError({ kind: 'network', message: 'refused' }));
      const cancelSubs = '    ----^!';
      const unsub = '         ^---!';
      const expected = '      s(tw)';
      expectTurn(turn(agent({ stream, cancel }), { text: 'hi' }, { ...options, logger }), expected, [
        [stream, streamSubs],
        [cancel, cancelSubs],
      ], { unsub });
    });
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]?.[0]).toMatchObject({ taskId: 'T', kind: 'network' });
  });

  it('a CancelTask that hangs is bounded by its own deadline', () => {
    const logger = spyLogger();
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('   -a', working);
      const streamSubs = '    ^---!';
      const cancel = cold<never>('-');
      const cancelSubs = '    ----^-------------------!';
      const unsub = '         ^---!';
      const expected = '      s(tw)';
      expectTurn(turn(agent({ stream, cancel }), { text: 'hi' }, { ...options, logger }), expected, [
        [stream, streamSubs],
        [cancel, cancelSubs],
      ], { unsub });
    });
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
