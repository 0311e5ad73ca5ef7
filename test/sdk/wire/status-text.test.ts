/**
 * A task status whose message is a plain string (`@reactive-agents/a2a` 0.9.0's failed task), read
 * by our reader as an agent message with that one text part and no messageId, in either generation.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/port/types.js';
import { fromSdkEvent } from '../../../src/sdk/wire/mapping/from-sdk.js';
import { fastEvent } from '../../../src/sdk/wire/reader/fast.js';
import { frameValue, type StreamMapping } from '../../../src/sdk/wire/reader/frame.js';

const MAPPING: StreamMapping<AgentEvent> = { map: fromSdkEvent, fast: fastEvent };
const WORDS = 'the model provider refused the request';
const read = (result: unknown) => frameValue(JSON.stringify({ jsonrpc: '2.0', id: 1, result }), { id: 1, echo: '1', ids: {} }, MAPPING);
const said = { role: 'agent', parts: [{ kind: 'text', text: WORDS }] };

describe('a status message given as a string', () => {
  it('v0.3 status-update and task', () => {
    const update = read({ kind: 'status-update', taskId: 'T', contextId: 'C', final: true, status: { state: 'failed', message: WORDS } });
    expect(update).toMatchObject({ kind: 'status', status: { state: 'failed', message: said } });
    const task = read({ kind: 'task', id: 'T', contextId: 'C', status: { state: 'failed', message: WORDS } });
    expect(task).toMatchObject({ kind: 'task', task: { status: { state: 'failed', message: said } } });
    for (const event of [update, task]) {
      const message = event.kind === 'status' ? event.status.message : event.kind === 'task' ? event.task.status.message : undefined;
      expect(message).not.toHaveProperty('messageId');
    }
  });

  it('v1.0 statusUpdate and task', () => {
    const status = { state: 'TASK_STATE_FAILED', message: WORDS };
    expect(read({ statusUpdate: { taskId: 'T', contextId: 'C', status } })).toMatchObject({
      kind: 'status',
      status: { state: 'failed', message: said },
    });
    expect(read({ task: { id: 'T', contextId: 'C', status: { ...status } } })).toMatchObject({
      kind: 'task',
      task: { status: { state: 'failed', message: said } },
    });
  });

  it('a status message that is an object is read as before', () => {
    const message = { kind: 'message', role: 'agent', messageId: 'M', parts: [{ kind: 'text', text: WORDS }] };
    const event = read({ kind: 'status-update', taskId: 'T', contextId: 'C', status: { state: 'working', message } });
    expect(event).toMatchObject({ kind: 'status', status: { message: { messageId: 'M', ...said } } });
  });
});
