/**
 * A JSON-RPC stream's frames mended in the fetch for the SDK's reader (src/sdk/fetch/stream-frames.ts):
 * one id other than the request's on every frame, `null` or no id, and a string status message, as our
 * reader reads them; a stream that speaks correctly passes byte for byte.
 */
import { describe, expect, it } from 'vitest';
import { MAX_HELD_BYTES, mendedStream } from '../../../src/sdk/wire/fetch/stream-frames.js';

const ID = 7;
const init = (id: unknown = ID): RequestInit => ({
  method: 'POST',
  headers: { Accept: 'text/event-stream', 'Content-Type': 'application/json' },
  body: JSON.stringify({ jsonrpc: '2.0', method: 'message/stream', params: { message: { parts: [] } }, id }),
});

/** A response whose body comes in `chunks` (strings, or bytes cut anywhere). */
function sse(chunks: (string | Uint8Array)[], type = 'text/event-stream'): Response {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(typeof chunk === 'string' ? encoder.encode(chunk) : chunk);
      controller.close();
    },
  });
  return new Response(body, { headers: { 'content-type': type } });
}

const frame = (id: unknown, result: unknown) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
const working = { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'working' }, final: false };
const done = { kind: 'status-update', taskId: 't', contextId: 'c', status: { state: 'completed' }, final: true };

/** The ids and results of the frames the mended stream carries. */
async function framesOf(response: Response): Promise<{ id: unknown; result?: unknown }[]> {
  const text = await response.text();
  return text
    .split(/\r\n|\r|\n/)
    .filter((line) => line.startsWith('data:'))
    .map((line) => JSON.parse(line.slice(5)) as { id: unknown; result?: unknown });
}

describe('a stream that speaks correctly', () => {
  it('passes byte for byte, whole or cut anywhere (inside a line, inside a UTF-8 sequence)', async () => {
    const text =
      frame(ID, working) +
      frame(ID, { ...done, status: { state: 'completed', message: { kind: 'message', parts: [] } } }) +
      frame(ID, { text: 'é€😀' });
    const bytes = new TextEncoder().encode(text);
    expect(await mendedStream(init(), sse([text])).text()).toBe(text);
    for (const cut of [1, 7, bytes.length - 12, bytes.length - 3, bytes.length - 1]) {
      const mended = mendedStream(init(), sse([bytes.slice(0, cut), bytes.slice(cut)]));
      expect(new Uint8Array(await mended.arrayBuffer())).toEqual(bytes);
    }
  });

  it('an answer that is no event stream, or to no JSON-RPC call, is the response itself', () => {
    const json = sse(['{}'], 'application/json');
    expect(mendedStream(init(), json)).toBe(json);
    const rest = sse([frame(1, working)]);
    expect(mendedStream({ method: 'POST', body: JSON.stringify({ message: {} }) }, rest)).toBe(rest);
  });
});

describe('ids, as our reader reads them', () => {
  it('one id other than the request’s on every frame (Reactive’s 1) → the request’s', async () => {
    expect(await framesOf(mendedStream(init(), sse([frame(1, working) + frame(1, done)])))).toMatchObject([{ id: ID }, { id: ID }]);
  });

  it('null, no id, or the request’s id as a string → the request’s', async () => {
    const noId = `data: ${JSON.stringify({ jsonrpc: '2.0', result: working })}\n\n`;
    const frames = await framesOf(mendedStream(init(), sse([frame(null, working), noId, frame(String(ID), done)])));
    expect(frames.map((f) => f.id)).toEqual([ID, ID, ID]);
  });

  it('mixed ids are no one call’s: a frame with another id than the first numbered one is left for the SDK to refuse', async () => {
    expect((await framesOf(mendedStream(init(), sse([frame(1, working), frame(2, done)])))).map((f) => f.id)).toEqual([ID, 2]);
    expect((await framesOf(mendedStream(init(), sse([frame(ID, working), frame(1, done)])))).map((f) => f.id)).toEqual([ID, 1]);
  });

  it('after a frame with the request’s id, one without an id is left as it came (the lines are no longer read for ids)', async () => {
    const noId = `data: ${JSON.stringify({ jsonrpc: '2.0', result: done })}\n\n`;
    expect(await mendedStream(init(), sse([frame(ID, working), noId])).text()).toBe(frame(ID, working) + noId);
  });

  it('CRLF and CR line ends, a frame cut mid-line', async () => {
    const crlf = frame(1, working).replace(/\n/g, '\r\n');
    const cr = frame(1, done).replace(/\n/g, '\r');
    const whole = crlf + cr;
    const mended = await mendedStream(init(), sse([whole.slice(0, 20), whole.slice(20, 90), whole.slice(90)])).text();
    expect(mended).toBe(whole.replace(/"id":1/g, `"id":${ID}`));
  });

  it('a frame split over several data: lines is left as it came', async () => {
    const split = `data: {"jsonrpc":"2.0","id":1,\ndata: "result":${JSON.stringify(working)}}\n\n`;
    expect(await mendedStream(init(), sse([split])).text()).toBe(split);
  });
});

describe('a status message given as a string', () => {
  it('v0.3 and v1.0: a message with that one text part', async () => {
    const failed = { ...done, status: { state: 'failed', message: 'quota exceeded' } };
    const v1 = { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_FAILED', message: 'quota exceeded' } } };
    const [v03, v10] = await framesOf(mendedStream(init(), sse([frame(ID, failed), frame(ID, v1)])));
    expect(v03?.result).toMatchObject({
      status: { message: { kind: 'message', role: 'agent', parts: [{ kind: 'text', text: 'quota exceeded' }] } },
    });
    expect(v10?.result).toMatchObject({
      statusUpdate: { status: { message: { role: 'ROLE_AGENT', parts: [{ text: 'quota exceeded' }] } } },
    });
  });

  it('in a later chunk of a stream numbered with the request’s id (searched as bytes), among other g’s', async () => {
    const failed = { ...done, status: { state: 'failed', message: 'gigantic quota exceeded' } };
    const text = frame(ID, { ...working, metadata: { tag: 'gg' } });
    const frames = await framesOf(
      mendedStream(init(), sse([text, frame(ID, { kind: 'message', parts: [{ kind: 'text', text: 'big' }] }), frame(ID, failed)])),
    );
    expect(frames[2]?.result).toMatchObject({
      status: { message: { kind: 'message', parts: [{ kind: 'text', text: 'gigantic quota exceeded' }] } },
    });
  });

  it('a string under another member named message (an error, a data part) is left as it came', async () => {
    const error = `data: ${JSON.stringify({ jsonrpc: '2.0', id: ID, error: { code: -32000, message: 'no' } })}\n\n`;
    const data = frame(ID, { kind: 'message', parts: [{ kind: 'data', data: { message: 'hi' } }] });
    expect(await mendedStream(init(), sse([error + data])).text()).toBe(error + data);
  });
});

describe('bounded', () => {
  it(`a line whose end has not come after ${MAX_HELD_BYTES} bytes: the stream is handed on as it comes from there`, async () => {
    const long = `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(MAX_HELD_BYTES) } })}\n\n`;
    const cut = MAX_HELD_BYTES + 8;
    const mended = await mendedStream(init(), sse([long.slice(0, cut), long.slice(cut), frame(1, done)])).text();
    expect(mended).toBe(long + frame(1, done));
  });

  it('a long line that ends within the bound is read whole and mended', async () => {
    const long = `data: ${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: 'x'.repeat(1 << 20) } })}\n\n`;
    const mended = await mendedStream(init(), sse([long.slice(0, 1000), long.slice(1000)])).text();
    expect(mended).toBe(long.replace('"id":1', `"id":${ID}`));
  });
});
