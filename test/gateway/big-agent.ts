/**
 * An agent whose every answer is 4 MB (4,000,000 characters, in 40 KB chunks): with the `end` event
 * that repeats it, more than a client's socket buffers hold, so a client that does not read leaves
 * the rest in the replica; and such a client, on a raw socket.
 */
import { connect, type Socket } from 'node:net';
import { cardV1 } from '../../demo/card.js';
import { startHost, type Host } from '../../fixtures/http-host.js';
import { mountV1 } from '../../fixtures/mount-v1.js';
import type { AgentScript } from '../../fixtures/turn.js';

const CHUNKS = 100;
/** One chunk of the reply: its number, then filler. */
const chunk = (i: number) => `[${String(i).padStart(3, '0')}]`.padEnd(40_000, '.');
/** The answer to every message. */
export const BIG_REPLY = Array.from({ length: CHUNKS }, (_, i) => chunk(i)).join('');

const bigScript: AgentScript = {
  cancelMessage: 'canceled',
  behaviour: async (t) => {
    t.task('submitted');
    t.status('working');
    for (let i = 0; i < CHUNKS; i++) {
      await t.sleep(2);
      t.artifact('answer', chunk(i), { append: i > 0, lastChunk: i === CHUNKS - 1 });
    }
    t.status('completed');
  },
};

/** Starts the agent on 127.0.0.1 (a free port); its URL is `host.agent.url('/')`. */
export async function startBigAgent(): Promise<Host> {
  const host = await startHost({ record: false });
  mountV1(host, { mount: '/', card: cardV1(host), script: bigScript, bindings: ['JSONRPC', 'HTTP+JSON'] });
  return host;
}

/**
 * Posts a message to a replica on 127.0.0.1 over HTTP/1.0 (so the answer's body is unframed, up to
 * the close) and returns the socket, flowing: pause it to read nothing.
 */
export function postUnframed(port: number, thread: string, token: string): Socket {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => undefined);
  const body = '{"text":"big"}';
  socket.write(
    `POST /threads/${thread}/messages HTTP/1.0\r\nHost: r\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  return socket;
}
