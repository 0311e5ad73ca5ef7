/**
 * The JSON-RPC ids a call's own response may carry (docs/wire.md): a stream's frames all numbered
 * with one other id are the call's, mixed ids are not; a unary answer's `null` id is the call's.
 */
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../src/port/types.js';
import { fromSdkEvent } from '../../../src/sdk/wire/mapping/from-sdk.js';
import { isOwnAnswer } from '../../../src/sdk/wire/reader/envelope.js';
import { fastEvent } from '../../../src/sdk/wire/reader/fast.js';
import { frameValue, type FrameCall, type StreamMapping } from '../../../src/sdk/wire/reader/frame.js';
import { tolerantReply } from '../../../src/sdk/wire/reader/replies.js';

const MAPPING: StreamMapping<AgentEvent> = { map: fromSdkEvent, fast: fastEvent };
const working = { kind: 'status-update', taskId: 'T', contextId: 'C', status: { state: 'working' }, final: false };
const frame = (id: unknown) => JSON.stringify({ jsonrpc: '2.0', id, result: working });
const call = (): FrameCall => ({ id: 7, echo: '7', ids: {} });

describe("a stream's frame ids", () => {
  it("every frame numbered 1 on the call numbered 7 (@reactive-agents/a2a 0.9.0) → the call's frames", () => {
    const c = call();
    for (let i = 0; i < 3; i++) expect(frameValue(frame(1), c, MAPPING)).toMatchObject({ kind: 'status', taskId: 'T' });
  });

  it("frames without an id, or with null, are the call's; a numbered one after them sets the id", () => {
    const c = call();
    expect(frameValue(frame(null), c, MAPPING)).toMatchObject({ kind: 'status' });
    expect(frameValue(JSON.stringify({ jsonrpc: '2.0', result: working }), c, MAPPING)).toMatchObject({ kind: 'status' });
    expect(frameValue(frame('x'), c, MAPPING)).toMatchObject({ kind: 'status' });
    expect(() => frameValue(frame(7), c, MAPPING)).toThrow(/a frame of another JSON-RPC call \(id 7, not 7, whose frames said x\)/);
  });

  it("mixed ids are refused: the request's id, then another", () => {
    const c = call();
    expect(frameValue(frame(7), c, MAPPING)).toMatchObject({ kind: 'status' });
    expect(frameValue(frame('7'), c, MAPPING)).toMatchObject({ kind: 'status' });
    expect(() => frameValue(frame(1), c, MAPPING)).toThrow(/a frame of another JSON-RPC call \(id 1, not 7\)/);
  });
});

describe("a unary answer's id (isOwnAnswer)", () => {
  it("accepts the request's id, the same as text, and null; refuses an absent id and any other", () => {
    expect(isOwnAnswer(3, 3)).toBe(true);
    expect(isOwnAnswer('3', 3)).toBe(true);
    expect(isOwnAnswer(null, 3)).toBe(true);
    expect(isOwnAnswer(undefined, 3)).toBe(false);
    expect(isOwnAnswer(4, 3)).toBe(false);
    expect(isOwnAnswer('someone-else', 3)).toBe(false);
  });

  const reply = async (answer: unknown) => {
    const init = { body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/get', params: { id: 'T' } }) };
    const response = new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
    return (await (await tolerantReply(init, response)).json()) as Record<string, unknown>;
  };

  it('an answer with "id": null is mended to the request\'s id for the SDK: a result and an error alike', async () => {
    expect(await reply({ jsonrpc: '2.0', id: null, result: { kind: 'task', id: 'T', status: { state: 'completed' } } })).toMatchObject({
      id: 3,
    });
    expect(await reply({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toMatchObject({ id: 3 });
  });

  it('an absent or other id is left for the SDK to refuse', async () => {
    expect(await reply({ jsonrpc: '2.0', id: 4, result: {} })).toMatchObject({ id: 4 });
    expect(await reply({ jsonrpc: '2.0', result: {} })).not.toHaveProperty('id');
  });
});
