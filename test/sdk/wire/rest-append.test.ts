import { describe, expect, it } from 'vitest';
import { APPEND_MARK } from '../../../src/sdk/wire/mapping/append-mark.js';
import { markAppends } from '../../../src/sdk/wire/fetch/rest-append.js';

const sse = (chunks: string[]) =>
  new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

describe('the HTTP+JSON append repair', () => {
  it('marks an artifact-update that says append, across chunk boundaries, and leaves the rest as it was', async () => {
    const event = JSON.stringify({ artifactUpdate: { taskId: 'T', artifact: { artifactId: 'A', parts: [{ text: 'x' }] }, append: true } });
    const other = JSON.stringify({ statusUpdate: { taskId: 'T', status: { state: 'TASK_STATE_WORKING' } } });
    const wire = `data: ${other}\n\ndata: ${event}\n\n`;
    const out = await markAppends('http://h/v1/message:stream', sse([wire.slice(0, 50), wire.slice(50)])).text();
    const [first, second] = out.split('\n\n');
    expect(first).toBe(`data: ${other}`);
    expect(JSON.parse(second!.slice(6)).artifactUpdate.metadata).toEqual({ [APPEND_MARK]: true });
  });

  it('passes a line longer than an event may be on, unbuffered and unmarked (the SDK bounds it)', async () => {
    const mib = 'y'.repeat(2 ** 20);
    const reader = markAppends('http://h/v1/message:stream', sse(['data: ', mib, mib, mib, mib, mib])).body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    expect(first.value!.byteLength).toBeGreaterThan(4 * 2 ** 20);
    await reader.cancel();
  });

  it('touches neither JSON answers nor JSON-RPC streams', async () => {
    const json = new Response('{"append":true}', { headers: { 'content-type': 'application/json' } });
    expect(markAppends('http://h/v1/message:send', json)).toBe(json);
    const rpc = sse(['data: {}\n\n']);
    expect(markAppends('http://h/a2a/jsonrpc', rpc)).toBe(rpc);
  });
});
