import { lastValueFrom, of, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/port/types.js';
import { protocolSendResponse, protocolStreamResponse, protocolTask } from '../../src/render/protocol.js';
import { runTurn } from '../../src/turn/turn.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';

describe('the agent objects as A2A v1.0 JSON', () => {
  it('a task: wire state names, roles, each part kind as proto JSON names it, metadata kept', () => {
    const json = protocolTask({
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'input-required',
        timestamp: '2026-01-01T00:00:00Z',
        message: { role: 'agent', parts: [{ kind: 'text', text: 'which city?' }] },
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'report',
          parts: [
            { kind: 'text', text: 'hello' },
            { kind: 'data', data: { n: 1 }, mediaType: 'application/json' },
            { kind: 'file', name: 'x.bin', mediaType: 'application/pdf', bytes: new Uint8Array([104, 105]) },
            { kind: 'file', uri: 'https://example.com/f' },
          ],
          metadata: { k: 'v' },
        },
      ],
      history: [{ role: 'user', parts: [{ kind: 'text', text: 'hi' }], messageId: 'm1' }],
    });
    expect(json).toEqual({
      id: 't1',
      contextId: 'c1',
      status: {
        state: 'TASK_STATE_INPUT_REQUIRED',
        timestamp: '2026-01-01T00:00:00Z',
        message: { role: 'ROLE_AGENT', parts: [{ text: 'which city?' }] },
      },
      artifacts: [
        {
          artifactId: 'a1',
          name: 'report',
          parts: [
            { text: 'hello' },
            { data: { n: 1 }, mediaType: 'application/json' },
            { raw: 'aGk=', filename: 'x.bin', mediaType: 'application/pdf' },
            { url: 'https://example.com/f' },
          ],
          metadata: { k: 'v' },
        },
      ],
      history: [{ messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    });
  });

  it('a state the client does not know is TASK_STATE_UNSPECIFIED, never a neighbour', () => {
    expect((protocolTask({ id: 't', status: { state: 'unknown' }, artifacts: [] }).status as { state: string }).state).toBe(
      'TASK_STATE_UNSPECIFIED',
    );
  });

  it('stream responses: one oneof case each, a sign of life none', () => {
    expect(protocolStreamResponse(ev.status('t1', 'working'))).toEqual({
      statusUpdate: { taskId: 't1', status: { state: 'TASK_STATE_WORKING' } },
    });
    expect(protocolStreamResponse(ev.artifact('t1', 'a', 'x', { append: true, lastChunk: true }))).toEqual({
      artifactUpdate: { taskId: 't1', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, append: true, lastChunk: true },
    });
    expect(protocolStreamResponse(ev.message('hi'))).toEqual({ message: { role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
    expect(protocolStreamResponse({ kind: 'alive' })).toBeUndefined();
    expect(protocolSendResponse(ev.task('t1', 'completed'))).toEqual({ task: { id: 't1', status: { state: 'TASK_STATE_COMPLETED' } } });
  });
});

describe('runTurn onAgentEvent: the agent objects of a turn, opt-in', () => {
  it('hears each event of the stream (not the signs of life), in order, before the turn ends', async () => {
    const port = createFakePort({
      card: () => of(testCard()),
      stream: () =>
        of<AgentEvent[]>(ev.task('t1', 'submitted'), { kind: 'alive' }, ev.artifact('t1', 'a', 'hi'), ev.status('t1', 'completed')),
    });
    const heard: AgentEvent[] = [];
    const events = await lastValueFrom(runTurn(port, { text: 'hello' }, { onAgentEvent: (event) => heard.push(event) }).pipe(toArray()));
    expect(heard.map((event) => event.kind)).toEqual(['task', 'artifact', 'status']);
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
  });

  it('hears a blocking send and the polls after it as task snapshots', async () => {
    const port = createFakePort({
      card: () => of(testCard({ streaming: false })),
      send: () => of(ev.task('t1', 'working')),
      getTask: () => of(ev.task('t1', 'completed', { message: 'done' }).task),
    });
    const heard: AgentEvent[] = [];
    await lastValueFrom(
      runTurn(port, { text: 'hello' }, { onAgentEvent: (event) => heard.push(event), policy: { poll: { initialDelayMs: 1 } } }),
    );
    expect(heard.map((event) => (event.kind === 'task' ? event.task.status.state : event.kind))).toEqual(['working', 'completed']);
  });
});
