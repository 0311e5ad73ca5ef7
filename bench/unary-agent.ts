/**
 * The agent of `bench/unary-memory.ts`, in a process of its own (so its own buffers do not count):
 * a card without streaming and one blocking answer of `MB` mebibytes of text, as v1.0 or v0.3
 * (`node dist/bench/unary-agent.js MB v1|v03`). It prints its port, then serves until killed.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

const mebibytes = Number(process.argv[2] ?? 60);
const legacy = process.argv[3] === 'v03';
const text = 'z'.repeat(mebibytes * 2 ** 20);

const server = createServer((req, res) => {
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const card = {
      name: 'a large answer',
      supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: legacy ? '0.3' : '1.0' }],
      capabilities: { streaming: false },
    };
    return void res.end(JSON.stringify(card));
  }
  let body = '';
  req.on('data', (chunk: Buffer) => (body += chunk));
  req.on('end', () => {
    const id = JSON.stringify((JSON.parse(body) as { id: unknown }).id);
    const part = legacy ? `{"kind":"text","text":"${text}"}` : `{"text":"${text}"}`;
    const artifacts = `[{"artifactId":"A","parts":[${part}]}]`;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      legacy
        ? `{"jsonrpc":"2.0","id":${id},"result":{"kind":"task","id":"T","contextId":"C","status":{"state":"completed"},"artifacts":${artifacts}}}`
        : `{"jsonrpc":"2.0","id":${id},"result":{"task":{"id":"T","contextId":"C","status":{"state":"TASK_STATE_COMPLETED"},"artifacts":${artifacts}}}}`,
    );
  });
});
server.listen(0, '127.0.0.1', () => console.log((server.address() as AddressInfo).port));
