import { describe, expect, it } from 'vitest';
import { A2AError } from '../../src/errors.js';
import type { FakePortCall } from '../../src/testing/index.js';
import { ev, task } from '../../src/testing/index.js';
import { a2aError, labels, marbles, signIn, streamedTurns, turn, withPolicy } from '../helpers.js';

// What agents in the wild do that our own fixtures did not: the ladder's side of it.
const drop = new A2AError({ kind: 'network', message: 'terminated' });
const notFound = new A2AError({ kind: 'task-not-found', code: -32001, message: 'task not found' });
const working = ev.task('T', 'working');
const methods = (calls: FakePortCall[]) => calls.map((c) => c.method);
const artifact = (text: string) => [{ artifactId: 'A', parts: [{ kind: 'text' as const, text }] }];

describe('agents in the wild', () => {
  it('HTTP 404 on a follow-up stream is not "task gone": one blocking send, still with the task id', () => {
    const refused = new A2AError({ kind: 'unsupported', status: 404, message: 'stream was refused with HTTP 404' });
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, refused);
      const streamSubs = '        ^!';
      const send = cold('          -(m|)', { m: ev.message('ok') });
      const sendSubs = '          -^!';
      const expected = '          sf(hE|)';
      const port = agent({ stream, send });
      expectTurn(turn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }), expected, [[stream, streamSubs], [send, sendSubs]]);
      return port.calls;
    });
    expect(calls.flatMap((c) => ('message' in c ? [c.message.taskId] : []))).toEqual(['T0', 'T0']);
  });

  it("a status-update that names no task, after the task is known, is the turn's task: it completes the turn", () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---b-c|', { a: working, b: ev.artifact('T', 'A', 'ok'), c: ev.status('', 'completed') });
      const streamSubs = '   ^------!';
      const expected = '     s(tw)h-(cE|)';
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]]);
    });
  });

  it('no CancelTask to a task the agent says it does not know (resubscribe, then GetTask: TaskNotFound)', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---#', { a: working }, drop);
      const streamSubs = '   ^----!';
      const resubscribe = cold<never>('           -#', undefined, notFound);
      const resubscribeSubs = '        ---------------^!';
      const getTask = cold<never>('                 -#', undefined, notFound);
      const getTaskSubs = '   ----------------^!';
      const cancel = cold('  (x|)', { x: task('T', 'canceled') });
      const expected = '     s(tw)r 10ms p#';
      const port = agent({ stream, resubscribe, getTask, cancel });
      expectTurn(turn(port), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [getTask, getTaskSubs],
        [cancel, []],
      ], { error: a2aError({ kind: 'task-not-found' }) });
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'getTask']);
  });

  it('a first-event timeout names the agent and the operation; the stream is read on for cancelTimeoutMs after it', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-');
      const streamSubs = '        ^ 69ms !';
      const expected = '          s 49ms #';
      const message = 'stream to http://127.0.0.1/: first-event timed out after 50 ms';
      const timedOut = a2aError({ kind: 'timeout', operation: 'stream', agent: 'http://127.0.0.1/', message });
      expectTurn(turn(agent({ stream })), expected, [[stream, streamSubs]], { error: timedOut });
    });
  });
});

describe('liveness', () => {
  it('signs of life (SSE pings) keep the idle clock from running out; they are not events', () => {
    const alive = { kind: 'alive' as const };
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a 19ms p 19ms p 19ms b|', { a: working, p: alive, b: ev.status('T', 'completed', 'ok') });
      const streamSubs = '   ^ 60ms !';
      const expected = '     s(tw) 56ms (ChE|)';
      const port = agent({ stream });
      expectTurn(turn(port), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });

  // A sign of life (`p`) 40 ms in, then the first event at each delay: the first-event clock restarts.
  const signsOfLife = [
    {
      title: 'a sign of life before the first event restarts the first-event clock',
      stream: '    40ms p 28ms a----(b|)',
      streamSubs: '^ 73ms !',
      expected: '  s 68ms (tw)-(ChE|)',
    },
    {
      title: 'the first-event clock a sign of life restarts is the first-event one, not the shorter idle gap',
      stream: '    40ms p 39ms a----(b|)',
      streamSubs: '^ 84ms !',
      expected: '  s 79ms (tw)-(ChE|)',
    },
  ];
  streamedTurns(signsOfLife, { events: { p: { kind: 'alive' }, a: working, b: ev.status('T', 'completed', 'ok') } });
});

describe('bounds that meet', () => {
  it('a turn deadline during an auth wait ends the turn as auth-required, not as an error, and cancels nothing', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---b', { a: working, b: ev.status('T', 'auth-required', signIn) });
      const streamSubs = '   ^ 99ms !';
      const expected = '     s(tw)(Aa) 91ms (lL|)';
      const deadline = withPolicy({ turnTimeoutMs: 100, authWaitMs: 300 });
      const port = agent({ stream });
      expectTurn(turn(port, { text: 'hi' }, deadline), expected, [[stream, streamSubs]]);
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream']);
  });
});

describe('lose nothing', () => {
  it("a resubscribe that opens without a task snapshot: one GetTask before the end, and the reply is the task's artifacts", () => {
    const replies = { x: 'text "one"', y: 'text " three"', k: 'reconcile T', R: 'replace "one two three"', Z: 'end completed "one two three"' };
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---b#', { a: working, b: ev.artifact('T', 'A', 'one') }, drop);
      const streamSubs = '   ^-----!';
      // " two" went out during the break; the live events resume with " three".
      const resubscribe = cold('                -de|', { d: ev.artifact('T', 'A', ' three', { append: true }), e: ev.status('T', 'completed') });
      const resubscribeSubs = '   ----------------^-!';
      const getTask = cold('                        ----(t|)', { t: task('T', 'completed', { artifacts: artifact('one two three') }) });
      const getTaskSubs = '       ------------------^---!';
      const expected = '          s(tw)xr 10ms y(ck)(RZ|)';
      const port = agent({ stream, resubscribe, getTask });
      expectTurn(turn(port), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [getTask, getTaskSubs],
      ], { values: { ...labels, ...replies } });
      return port.calls;
    });
    expect(methods(calls)).toEqual(['card', 'stream', 'resubscribe', 'getTask']);
  });

  it('the reconciling GetTask is best effort: when it fails, the live reply stands', () => {
    const down = new A2AError({ kind: 'http', status: 503, retryable: true, message: 'unavailable' });
    const replies = { x: 'text "one"', y: 'text " three"', k: 'reconcile T', Z: 'end completed "one three"' };
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---b#', { a: working, b: ev.artifact('T', 'A', 'one') }, drop);
      const streamSubs = '   ^-----!';
      const resubscribe = cold('                -de|', { d: ev.artifact('T', 'A', ' three', { append: true }), e: ev.status('T', 'completed') });
      const resubscribeSubs = '   ----------------^-!';
      const getTask = cold<never>('                 ----#', undefined, down);
      const getTaskSubs = '       ------------------^---!';
      const expected = '          s(tw)xr 10ms y(ck)(Z|)';
      expectTurn(turn(agent({ stream, resubscribe, getTask })), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [getTask, getTaskSubs],
      ], { values: { ...labels, ...replies } });
    });
  });

    it('a resubscribe that opens with its snapshot needs no GetTask', () => {
    const replies = { x: 'text "one"', y: 'text " two"', Z: 'end completed "one two"' };
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold('  -a---b#', { a: working, b: ev.artifact('T', 'A', 'one') }, drop);
      const streamSubs = '   ^-----!';
      const resubscribe = cold('                -de|', { d: ev.task('T', 'working', { artifacts: artifact('one two') }), e: ev.status('T', 'completed') });
      const resubscribeSubs = '   ----------------^-!';
      const getTask = cold('  (t|)', { t: task('T', 'completed') });
      const expected = '          s(tw)xr 10ms y(cZ|)';
      expectTurn(turn(agent({ stream, resubscribe, getTask })), expected, [
        [stream, streamSubs],
        [resubscribe, resubscribeSubs],
        [getTask, []],
      ], { values: { ...labels, ...replies } });
    });
  });
});
