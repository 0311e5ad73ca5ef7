/**
 * An interrupted end as the gateway writes it (examples/gateway/sse.mjs) and as its client answers it
 * (client-bodies.mjs's answerFields): the question's kind, task, text, requests for input by id and state, and
 * generation; not the thread's contextId, the agent's whole message, or the requests' metadata.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { describe, expect, it } from 'vitest';
import { answerFields } from '../../examples/gateway/client-bodies.mjs';
import { eventFrame } from '../../examples/gateway/sse.mjs';
import type { EndEvent } from '../../src/port/events.js';

/** The JSON of the one event a frame holds, as a browser's parser reads it. */
function dataOf(frame: string): Record<string, unknown> {
  const events: EventSourceMessage[] = [];
  createParser({ onEvent: (event) => events.push(event) }).feed(frame);
  expect(events).toHaveLength(1);
  return JSON.parse(events[0]!.data) as Record<string, unknown>;
}

const CONTEXT = 'ctx-of-the-thread';

describe('the interrupt in the end frame', () => {
  it('an auth-required end: kind, task, text, each request by id and state, the generation; no contextId, message or metadata', () => {
    const end: EndEvent = {
      type: 'end',
      outcome: 'auth-required',
      text: 'Sign in, please',
      contextId: CONTEXT,
      taskId: 'T',
      generation: 4,
      interrupt: {
        kind: 'auth',
        taskId: 'T',
        contextId: CONTEXT,
        text: 'Sign in, please',
        message: { role: 'agent', messageId: 'm1', parts: [{ kind: 'text', text: 'Sign in, please' }] },
        elicitations: [
          { id: 'T/q1', state: 'blocked', metadata: { secret: 'of the agent' } },
          { id: 'T/q0', state: 'resolved' },
        ],
        generation: 4,
      },
    };
    const data = dataOf(eventFrame(end, '0.T'));
    expect(data['interrupt']).toEqual({
      kind: 'auth',
      taskId: 'T',
      text: 'Sign in, please',
      elicitations: [
        { id: 'T/q1', state: 'blocked' },
        { id: 'T/q0', state: 'resolved' },
      ],
      generation: 4,
    });
    expect(JSON.stringify(data)).not.toContain(CONTEXT);
    expect(JSON.stringify(data)).not.toContain('of the agent');
  });

  it('an end that is not interrupted has no interrupt', () => {
    const data = dataOf(eventFrame({ type: 'end', outcome: 'completed', text: 'done', taskId: 'T', generation: 5 }, '4.T'));
    expect(data).not.toHaveProperty('interrupt');
    expect(data).toMatchObject({ outcome: 'completed', generation: 5 });
  });
});

describe("answerFields: an answer's message from the frame's interrupt", () => {
  it('names the task, the generation, and the requests still open (blocked, waiting), not resolved or unknown ones', () => {
    const fields = answerFields({
      kind: 'input',
      taskId: 'T',
      text: 'Which city?',
      elicitations: [
        { id: 'a', state: 'blocked' },
        { id: 'b', state: 'waiting' },
        { id: 'c', state: 'resolved' },
        { id: 'd', state: 'unknown' },
      ],
      generation: 3,
    });
    expect(fields).toEqual({ taskId: 'T', ifGenerationMatch: 3, elicitationIds: ['a', 'b'] });
  });

  it('of an agent without generations or requests: the task alone', () => {
    expect(answerFields({ kind: 'input', taskId: 'T', text: 'Which city?' })).toEqual({ taskId: 'T' });
    expect(answerFields({ kind: 'input', taskId: 'T', text: '?', elicitations: [{ id: 'c', state: 'resolved' }] })).toEqual({
      taskId: 'T',
    });
  });
});
