import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeFetch } from '../../src/node/fetch.js';
import { runTurn } from '../../src/turn/turn.js';
import { createSdkPorts } from '../../src/sdk/ports.js';

/**
 * A hostile A2A v1.0 agent on 127.0.0.1: its card is honest, its stream is not. `endless` streams
 * artifact chunks as fast as the socket takes them, forever; `huge` sends one event larger than
 * any sane reply. The client's memory must stay within its bounds and the turn must end.
 */
function hostileAgent(mode: 'endless' | 'huge'): Promise<{ url: string; cancels: () => number; close: () => Promise<void> }> {
  let cancels = 0;
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    if (req.method === 'GET') {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({
        name: 'hostile', description: 'streams too much', version: '1', capabilities: { streaming: true },
        supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'], skills: [],
      }));
      return;
    }
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => {
      const rpc = JSON.parse(body) as { id: number; method: string };
      if (rpc.method === 'CancelTask') {
        cancels++;
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_CANCELED' } } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const frame = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: '2.0', id: rpc.id, result })}\n\n`;
      res.write(frame({ task: { id: 'T', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
      if (mode === 'huge') {
        res.write(frame({ artifactUpdate: { taskId: 'T', contextId: 'C', artifact: { artifactId: 'A', parts: [{ text: 'x'.repeat(6 * 2 ** 20) }] } } }));
        return;
      }
      const chunk = frame({ artifactUpdate: { taskId: 'T', contextId: 'C', append: true, artifact: { artifactId: 'A', parts: [{ text: 'y'.repeat(1000) }] } } });
      const pump = () => {
        while (!res.destroyed && res.write(chunk.repeat(50)));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
        cancels: () => cancels,
        close: () =>
          new Promise<void>((done) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
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
    const turn$ = runTurn(createSdkPorts({ fetch: http.fetch })(agent.url), { text: 'hi' }, { policy: { maxReplyChars: 2_000_000, turnTimeoutMs: 20_000 } });
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
    await expect(lastValueFrom(turn$)).rejects.toMatchObject({ kind: 'protocol', message: expect.stringMatching(/exceeded the maximum allowed size/) });
    await expect.poll(agent.cancels).toBe(1);
  });
});
