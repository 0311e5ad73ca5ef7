import { map } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { A2AError } from '../../../src/errors.js';
import type { AgentEvent } from '../../../src/port/types.js';
import { ev, task, type FakePortCall } from '../../../src/testing/index.js';
import { runTurn } from '../../../src/turn/turn.js';
import { a2aError, labels, marbles, options, turn, type Subscribed } from '../../helpers.js';

const unsupported = new A2AError({ kind: 'unsupported', code: -32004, message: 'streaming is not supported' });
const refused = new A2AError({ kind: 'unsupported', message: 'no' });

/**
 * A turn whose agent refuses with one error: the stream and the send fail at `#` with it, the
 * stream's `a` names task T working, GetTask reads T completed "ok". Each case draws what is
 * scripted (only those answers are), the turn's events, and the methods the port was called with.
 */
interface RefusalCase {
  title: string;
  /** The card does not stream (the blocking rung). */
  blocking?: true;
  stream?: string;
  streamSubs?: string;
  send?: string;
  sendSubs?: string;
  getTask?: string;
  getTaskSubs?: string;
  expected: string;
  methods: string[];
}

/** A refusal after the stream named its task: no fallback, T is polled (the same under each error). */
const polledAfterAnEvent = {
  stream: '       -a---#',
  streamSubs: '   ^----!',
  getTask: '           -(t|)',
  getTaskSubs: '  -----^!',
  expected: '     s(tw)p(ChE|)',
  methods: ['card', 'stream', 'getTask'],
};

/** One test per case, each under its own title; `error` is the refusal and, at `#` in `expected`, the turn's error. */
function refusalCases(error: A2AError, cases: RefusalCase[]): void {
  for (const { title, blocking, expected, methods, ...drawn } of cases) {
    it(title, () => {
      const calls = marbles(({ cold, card, blockingCard, agent, expectTurn }) => {
        const stream = drawn.stream === undefined ? undefined : cold<AgentEvent>(drawn.stream, { a: ev.task('T', 'working') }, error);
        const send = drawn.send === undefined ? undefined : cold<never>(drawn.send, undefined, error);
        const getTask = drawn.getTask === undefined ? undefined : cold(drawn.getTask, { t: task('T', 'completed', { message: 'ok' }) });
        const subscribed: Subscribed[] = [];
        if (stream) subscribed.push([stream, drawn.streamSubs!]);
        if (send) subscribed.push([send, drawn.sendSubs!]);
        if (getTask) subscribed.push([getTask, drawn.getTaskSubs!]);
        const port = agent({ card: blocking ? blockingCard : card, stream, send, getTask });
        expectTurn(turn(port), expected, subscribed, { card: blocking ? blockingCard : card, values: R, error });
        return port.calls;
      });
      expect(calls.map((c) => c.method)).toEqual(methods);
    });
  }
}

describe('the blocking rung', () => {
  it('sends blocking when the card does not stream, and renders the result once', () => {
    const calls = marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    ---(r|)', { r: ev.task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }) });
      const sendSubs = '     ^--!';
      const expected = '     s--(thcE|)';
      const port = agent({ card: blockingCard, send });
      expectTurn(turn(port), expected, [[send, sendSubs]], { card: blockingCard });
      return port.calls;
    });
    expect(calls.map((c) => c.method)).toEqual(['card', 'send']);
  });

  it('falls back to one blocking send when the stream is refused before any event', () => {
    marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('-#', undefined, unsupported);
      const streamSubs = '          ^!';
      const send = cold('            --(r|)', { r: ev.message('ok') });
      const sendSubs = '            -^-!';
      const expected = '            sf-(hE|)';
      expectTurn(turn(agent({ stream, send })), expected, [[stream, streamSubs], [send, sendSubs]]);
    });
  });

  refusalCases(refused, [
    {
      title: 'does not fall back twice: a refused blocking send after a refused stream is the error',
      stream: '       #',
      streamSubs: '   (^!)',
      send: '         #',
      sendSubs: '     (^!)',
      expected: '     (sf#)',
      methods: ['card', 'stream', 'send'],
    },
    {
      title: 'does not fall back when the stream is refused after an event',
      // A refusal after the task is known is a refused reconnect: poll, never re-send.
      ...polledAfterAnEvent,
    },
  ]);

  it('finishes a blocking send that returned a working task by polling', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    -(r|)', { r: ev.task('T', 'working') });
      const sendSubs = '     ^!';
      const get1 = cold('    -(t|)', { t: task('T', 'working') });
      const get1Subs = '     11ms ^!';
      const get2 = cold('    -(t|)', { t: task('T', 'completed', { message: 'ok' }) });
      const get2Subs = '     22ms ^!';
      const expected = '     s(twP) 17ms (ChE|)';
      expectTurn(turn(agent({ card: blockingCard, send, getTask: [get1, get2] })), expected, [
        [send, sendSubs],
        [get1, get1Subs],
        [get2, get2Subs],
      ], { card: blockingCard });
    });
  });

  it('bounds the blocking send (an unanswered send is read on for cancelTimeoutMs, in case it names a task to cancel)', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold<never>('-');
      const sendSubs = '          ^ 219ms !';
      const expected = '          s 199ms #';
      expectTurn(turn(agent({ card: blockingCard, send })), expected, [
        [send, sendSubs],
      ], { card: blockingCard, error: a2aError({ kind: 'timeout', phase: 'send' }) });
    });
  });

  it('ends input-required and auth-required blocking results as outcomes', () => {
    marbles(({ cold, blockingCard, agent, expectTurn }) => {
      const send = cold('    (r|)', { r: ev.task('T', 'input-required', { message: 'Which city?' }) });
      const sendSubs = '     (^!)';
      const expected = '     (stiqI|)';
      expectTurn(turn(agent({ card: blockingCard, send })), expected, [[send, sendSubs]], { card: blockingCard });
    });
  });
});

const invalidParams = new A2AError({ kind: 'protocol', code: -32602, message: 'the agent answered with an error: Invalid send message request parameters' });
const methodNotFound = new A2AError({ kind: 'unsupported', code: -32601, message: 'not supported by the agent (Method message/stream not found)' });
const invalidRequest = new A2AError({ kind: 'protocol', code: -32600, message: 'the agent answered with an error: Invalid Request' });
const R = { ...labels, F: 'fallback to send (protocol)' };

// What the agent answered to each call, and whether the message it carried was the same one.
/** Each send of the turn as `method message`; every one carries the same messageId (left out here, checked). */
const sentMessages = (calls: FakePortCall[]) => {
  const sends = calls.flatMap((c) => ('message' in c ? [c] : []));
  expect(new Set(sends.map((c) => c.message.messageId)).size).toBe(1);
  return sends.map(({ method, message: { messageId: _id, ...message } }) => `${method} ${JSON.stringify(message)}`);
};

describe('a stream refused by a JSON-RPC error before any event (an agent that streams nothing: Juspay jaf 0.1.37)', () => {
  for (const [name, error, letter] of [
    ['-32602 invalid params', invalidParams, 'F'],
    ['-32601 method not found', methodNotFound, 'f'],
    ['-32004 unsupported operation', unsupported, 'f'],
  ] as const) {
    it(`${name}: one fallback note, the same message once by a blocking send, the whole reply`, () => {
      const calls = marbles(({ cold, agent, expectTurn }) => {
        const stream = cold<never>('-#', undefined, error);
        const streamSubs = '          ^!';
        const send = cold('            --(r|)', { r: ev.task('T', 'completed', { artifacts: [{ artifactId: 'A', parts: [{ kind: 'text', text: 'ok' }] }] }) });
        const sendSubs = '            -^-!';
        const expected = `            s${letter}-(thcE|)`;
        const port = agent({ stream, send });
        expectTurn(turn(port, { text: 'hi', contextId: 'C' }), expected, [[stream, streamSubs], [send, sendSubs]], { values: R });
        return port.calls;
      });
      expect(sentMessages(calls)).toEqual(['stream {"text":"hi","contextId":"C"}', 'send {"text":"hi","contextId":"C"}']);
    });
  }

  it('the fallback note carries the refusal', () => {
    const events = marbles(({ cold, agent, expectObservable }) => {
      const stream = cold<never>('#', undefined, invalidParams);
      const send = cold('            (m|)', { m: ev.message('ok') });
      const seen: unknown[] = [];
      expectObservable(runTurn(agent({ stream, send }), { text: 'hi' }, options).pipe(map((e) => (seen.push(e), e.type)))).toBe('(sfte|)', {
        s: 'start',
        f: 'fallback',
        t: 'text',
        e: 'end',
      });
      return seen;
    });
    expect(events[1]).toEqual({ type: 'fallback', from: 'stream', to: 'send', cause: invalidParams });
  });

  it('a follow-up keeps its task id on the blocking send', () => {
    const calls = marbles(({ cold, agent, expectTurn }) => {
      const stream = cold<never>('#', undefined, invalidParams);
      const send = cold('            (m|)', { m: ev.message('ok') });
      const port = agent({ stream, send });
      expectTurn(turn(port, { text: 'Paris', contextId: 'C', taskId: 'T0' }), '(sFhE|)', [], { values: R });
      return port.calls;
    });
    expect(sentMessages(calls)).toEqual([
      'stream {"text":"Paris","contextId":"C","taskId":"T0"}',
      'send {"text":"Paris","contextId":"C","taskId":"T0"}',
    ]);
  });

  refusalCases(invalidParams, [
    {
      title: '-32602 in answer to the blocking send after the fallback is the error: nothing sent a third time',
      stream: '       -#',
      streamSubs: '   ^!',
      send: '          -#',
      sendSubs: '     -^!',
      expected: '     sF#',
      methods: ['card', 'stream', 'send'],
    },
    {
      title: '-32602 in answer to a blocking send the card chose is the error: no stream, no second send',
      blocking: true,
      send: '         -#',
      sendSubs: '     ^!',
      expected: '     s#',
      methods: ['card', 'send'],
    },
    {
      title: '-32602 after an event is no refusal of the stream: the task is polled, the message never sent again',
      ...polledAfterAnEvent,
    },
  ]);
  refusalCases(invalidRequest, [
    {
      title: '-32600 (the request object itself refused, as the blocking send would be) is the error: no fallback',
      stream: '       -#',
      streamSubs: '   ^!',
      expected: '     s#',
      methods: ['card', 'stream'],
    },
  ]);
});
