/**
 * The transport's default error text names no internal URL: an agent behind a server route at a
 * distinctive address (127.0.0.1, its own port, a path no one guesses) fails in three ways — nothing
 * listening at its port, its card refused, its stream a protocol error — and what the route sends the browser
 * (`createUIMessageStreamResponse`'s body) carries none of the address; `onError` hears the whole
 * error on the server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createUIMessageStreamResponse } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { a2aChatTransport } from '../../src/ai-sdk/index.js';
import { createA2A } from '../../src/node/create-a2a.js';
import { sendJson, sseFrame, startRawAgent, type RawAgent } from '../sdk/raw-agent.js';
import { SECRET, submitHi } from './kit.js';

/** The path the agent is mounted at: the kind of thing an internal URL says. */
const PATH = '/internal-a2a-7f3e9c/';

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

/** A port nothing listens on (one listened on, then closed). */
async function closedPort(): Promise<number> {
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An agent at {@link PATH} whose card is refused (500), or whose stream names a task id with a line break. */
async function agentAt(mode: 'card-refused' | 'protocol'): Promise<RawAgent> {
  const agent = await startRawAgent((_req, res, { base, rpc }) => {
    if (rpc === undefined) {
      if (mode === 'card-refused') return sendJson(res, { error: 'down' }, {}, 500);
      return sendJson(res, {
        name: 'internal',
        description: 'an agent only the server reaches',
        version: '1',
        capabilities: { streaming: true },
        supportedInterfaces: [{ url: `${base}${PATH.slice(1)}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      });
    }
    if (rpc.method !== 'SendStreamingMessage') return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'no' } });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(sseFrame(rpc.id, { task: { id: 't\r\nx', contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
  });
  closers.push(agent.close);
  return agent;
}

/** What a route sends the browser for one message to `agentUrl`, and the errors the server heard. */
async function routeBody(agentUrl: string): Promise<{ body: string; heard: unknown[] }> {
  const client = createA2A({ identitySecret: SECRET, policy: { turnTimeoutMs: 5_000 } });
  closers.push(() => client.close());
  const heard: unknown[] = [];
  const transport = a2aChatTransport({ client, agent: agentUrl, handle: 'web', onError: (error) => heard.push(error) });
  const stream = await submitHi(transport);
  const body = await createUIMessageStreamResponse({ stream }).text();
  return { body, heard };
}

describe("a failed turn's error text, as a route sends it to the browser", { timeout: 20_000 }, () => {
  it.each([
    ['nothing listens at the agent’s port', 'closed', 'card', 'The agent is not available.'],
    ['the agent’s card refused', 'card-refused', 'card', 'The agent is not available.'],
    ['the agent’s stream a protocol error', 'protocol', 'protocol', "The agent's answer could not be read."],
  ] as const)('%s: a sentence by kind, no host, port or path; onError hears the whole error', async (_name, mode, kind, sentence) => {
    const base = mode === 'closed' ? `http://127.0.0.1:${await closedPort()}` : (await agentAt(mode)).url.replace(/\/$/, '');
    const port = new URL(base).port;
    const { body, heard } = await routeBody(`${base}${PATH}`);
    expect(body).toContain('"type":"error"');
    expect(body).toContain(JSON.stringify(sentence).slice(1, -1));
    expect(body).not.toContain('127.0.0.1');
    expect(body).not.toContain(port);
    expect(body).not.toContain('internal-a2a');
    expect(heard).toEqual([expect.objectContaining({ kind, message: expect.stringContaining(`127.0.0.1:${port}`) })]);
  });
});
