import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../../src/node/fetch.js';
import { runTurn } from '../../../src/turn/turn.js';
import { createSdkPorts } from '../../../src/sdk/ports.js';
import { rawCard, sendJson, sseFrame, startRawAgent, type RawAgent } from '../raw-agent.js';

/**
 * A hostile A2A v1.0 agent on 127.0.0.1: its card is honest, its stream is not. `endless` streams
 * artifact chunks as fast as the socket takes them, forever; `huge` sends one event larger than
 * any sane reply. The client's memory must stay within its bounds and the turn must end.
 */
async function hostileAgent(
  mode: 'endless' | 'huge' | 'many-artifacts' | 'huge-unary' | 'many-files' | 'long-ids',
): Promise<RawAgent & { cancels: () => number }> {
  let cancels = 0;
  const agent = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      return sendJson(res, rawCard(base, 'hostile', 'streams too much', { capabilities: { streaming: mode !== 'huge-unary' } }));
    }
    if (rpc.method === 'CancelTask') {
      cancels++;
      return sendJson(res, { jsonrpc: '2.0', id: rpc.id, result: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_CANCELED' } } });
    }
    if (mode === 'huge-unary') {
      // A 40 MB answer, written as fast as the socket takes it.
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(
        `{"jsonrpc":"2.0","id":${rpc.id},"result":{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"},"metadata":{"pad":"`,
      );
      let left = 40;
      const more = () => {
        while (!res.destroyed && left > 0 && res.write('z'.repeat(2 ** 20))) left--;
        if (res.destroyed) return;
        if (left > 0) res.once('drain', more);
        else res.end('"}}}}');
      };
      more();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const frame = (result: unknown) => sseFrame(rpc.id, result);
    res.write(frame({ task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
    if (mode === 'many-artifacts') {
      let n = 0;
      const pump = () => {
        while (
          !res.destroyed &&
          res.write(frame({ artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: `A${n++}`, parts: [{ text: 'a' }] } } }))
        );
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    if (mode === 'long-ids') {
      // A thousand artifacts whose ids are a mebibyte each: a gigabyte held through ids alone.
      let n = 0;
      const pump = () => {
        while (!res.destroyed && n < 1000) {
          const artifactId = `${n++}`.padEnd(2 ** 20, 'i');
          if (!res.write(frame({ artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId, parts: [{ text: 'a' }] } } })))
            break;
        }
        if (!res.destroyed && n < 1000) res.once('drain', pump);
      };
      pump();
      return;
    }
    if (mode === 'many-files') {
      // Endless distinct 16 KB pictures appended to one artifact.
      let n = 0;
      const pump = () => {
        while (!res.destroyed) {
          const raw = Buffer.alloc(16 * 1024, n++ % 251).toString('base64');
          const part = { raw, mediaType: 'image/png', filename: `p${n}.png` };
          if (
            !res.write(
              frame({ artifactUpdate: { taskId: 'T', contextId: 'C', append: true, artifact: { artifactId: 'A', parts: [part] } } }),
            )
          )
            break;
        }
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
      return;
    }
    if (mode === 'huge') {
      res.write(
        frame({
          artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'A', parts: [{ text: 'x'.repeat(6 * 2 ** 20) }] } },
        }),
      );
      return;
    }
    const chunk = frame({
      artifactUpdate: { taskId: 'T', contextId: 'C', append: true, artifact: { artifactId: 'A', parts: [{ text: 'y'.repeat(1000) }] } },
    });
    const pump = () => {
      while (!res.destroyed && res.write(chunk.repeat(50)));
      if (!res.destroyed) res.once('drain', pump);
    };
    pump();
  });
  return { ...agent, cancels: () => cancels };
}

describe('a hostile agent cannot grow the client past its bounds', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('an endless stream ends at maxReplyChars with a protocol error; the task is cancelled; memory stays bounded', async () => {
    const agent = await hostileAgent('endless');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const heapBefore = process.memoryUsage().heapUsed;
    const turn$ = runTurn(
      createSdkPorts({ fetch: http.fetch })(agent.url),
      { text: 'hi' },
      { policy: { maxReplyChars: 2_000_000, turnTimeoutMs: 20_000 } },
    );
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'protocol', message: expect.stringContaining('longer than 2000000') });
    const grown = process.memoryUsage().heapUsed - heapBefore;
    expect(grown).toBeLessThan(64 * 2 ** 20);
    await expect.poll(agent.cancels).toBe(1);
  });

  it('one event larger than the SSE bound ends the turn with a protocol error, and the task is cancelled', async () => {
    const agent = await hostileAgent('huge');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const turn$ = runTurn(createSdkPorts({ fetch: http.fetch })(agent.url), { text: 'hi' }, { policy: { turnTimeoutMs: 20_000 } });
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({
      kind: 'protocol',
      message: expect.stringMatching(/exceeded the maximum allowed size|larger than 4194304 characters/),
    });
    await expect.poll(agent.cancels).toBe(1);
  });

  it('endless new artifact ids end at maxArtifacts with a protocol error naming it; the task is cancelled', async () => {
    const agent = await hostileAgent('many-artifacts');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const turn$ = runTurn(
      createSdkPorts({ fetch: http.fetch })(agent.url),
      { text: 'hi' },
      { policy: { maxArtifacts: 500, turnTimeoutMs: 20_000 } },
    );
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({
      kind: 'protocol',
      message: expect.stringContaining('more than 500 artifacts (maxArtifacts)'),
    });
    await expect.poll(agent.cancels).toBe(1);
  });

  it.each([
    [{ maxAttachments: 50 }, 'more than 50 attachments (maxAttachments)'],
    [{ maxAttachmentBytes: 2 ** 20, maxAttachments: 100_000 }, 'larger than 1048576 bytes (maxAttachmentBytes)'],
  ])('endless new file parts end at %o with a protocol error naming it; the task is cancelled', async (policy, message) => {
    const agent = await hostileAgent('many-files');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const turn$ = runTurn(
      createSdkPorts({ fetch: http.fetch })(agent.url),
      { text: 'hi' },
      { policy: { ...policy, turnTimeoutMs: 20_000 } },
    );
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'protocol', message: expect.stringContaining(message) });
    await expect.poll(agent.cancels).toBe(1);
  });

  it('artifact ids a mebibyte long end the turn at the first with a protocol error naming the bound; the task is cancelled', async () => {
    const agent = await hostileAgent('long-ids');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const turn$ = runTurn(createSdkPorts({ fetch: http.fetch })(agent.url), { text: 'hi' }, { policy: { turnTimeoutMs: 20_000 } });
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({
      kind: 'protocol',
      message: expect.stringContaining('an artifact id of 1048576 characters, longer than the 1024 the client keeps'),
    });
    await expect.poll(agent.cancels).toBe(1);
  });

  it('a huge unary answer fails at maxResponseBytes, naming it, without buffering the answer', async () => {
    const agent = await hostileAgent('huge-unary');
    const http = createNodeFetch();
    closers.push(agent.close, http.close);
    const heapBefore = process.memoryUsage().heapUsed;
    const ports = createSdkPorts({ fetch: http.fetch, maxResponseBytes: 2 ** 20 });
    const turn$ = runTurn(ports(agent.url), { text: 'hi' }, { policy: { turnTimeoutMs: 20_000 } });
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({
      kind: 'protocol',
      operation: 'send',
      agent: expect.stringContaining('127.0.0.1'),
      message: expect.stringContaining('larger than 1048576 bytes (maxResponseBytes)'),
    });
    expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(32 * 2 ** 20);
  });
});
