import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pushHandler } from '../../src/node/push-handler.js';
import type { AgentEvent } from '../../src/port/types.js';
import { createPushReceiver, type PushReceiver, type PushReceiverOptions } from '../../src/push/receiver.js';

/** The identity secret of these tests (a deployment's). */
export const SECRET = 'push-test-secret-0123456789abcdef';

/** A receiver on 127.0.0.1 behind Node's http, and what reached each thread's listener. */
export interface LoopbackReceiver {
  receiver: PushReceiver;
  url: string;
  /** Every event handed to a listener, by contextId. */
  shown: Map<string, AgentEvent[]>;
  /** Listens to a thread (as a turn would) until the receiver closes. */
  follow(contextId: string): void;
  /** The HTTP server down for `downMs` (connections refused), then up on the same port with the same receiver. */
  restart(downMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a receiver at `http://127.0.0.1:PORT/push` (port 0 unless given: a restart takes the same one). */
export async function startReceiver(options: Partial<PushReceiverOptions> = {}, port = 0): Promise<LoopbackReceiver> {
  let server: Server = await listen(port);
  const bound = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${bound}/push`;
  const receiver = createPushReceiver({ secret: SECRET, url, ...options });
  const handler = pushHandler(receiver);
  server.on('request', handler);
  const shown = new Map<string, AgentEvent[]>();
  const followed: { unsubscribe(): void }[] = [];
  return {
    receiver,
    url,
    shown,
    follow(contextId) {
      shown.set(contextId, []);
      followed.push(receiver.events(contextId).subscribe((event) => shown.get(contextId)!.push(event)));
    },
    async restart(downMs) {
      await stop(server);
      await new Promise((resolve) => setTimeout(resolve, downMs));
      server = await listen(bound);
      server.on('request', handler);
    },
    async close() {
      for (const subscription of followed) subscription.unsubscribe();
      await stop(server);
    },
  };
}

async function listen(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

async function stop(server: Server): Promise<void> {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** A v1.0 status update's push body, as `@a2a-js/sdk` 1.x posts it. */
export function statusPush(taskId: string, contextId: string, state = 'TASK_STATE_WORKING', timestamp = new Date().toISOString()): string {
  return JSON.stringify({ statusUpdate: { taskId, contextId, status: { state, timestamp } } });
}

/** POSTs `body` to the receiver with `headers` (JSON by default), as an agent would. */
export function post(url: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/a2a+json', ...headers },
    body,
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
}
