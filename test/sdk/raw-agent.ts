import { createServer, type IncomingMessage, type Server, type ServerOptions, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** A JSON-RPC request as the raw agent received it. */
export interface RawRequest {
  id: number;
  method: string;
  params?: unknown;
}

/**
 * Handles one request. `base` is the server's URL (with a trailing slash); `rpc` is the parsed
 * JSON-RPC body of a POST, undefined for a GET.
 */
export type RawHandler = (req: IncomingMessage, res: ServerResponse, context: { base: string; rpc: RawRequest | undefined }) => void;

/** A raw server on 127.0.0.1, for the bytes no SDK server sends; `close()` ends every connection. */
export interface RawAgent {
  url: string;
  /** TCP connections accepted so far. */
  readonly connections: number;
  close(): Promise<void>;
}

/**
 * Starts a raw agent on 127.0.0.1, port 0. Its POST bodies are read and parsed before `handler` runs.
 * `options` are Node's server options (`maxHeaderSize`: Node itself answers 431 past it).
 */
export async function startRawAgent(handler: RawHandler, options: ServerOptions = {}): Promise<RawAgent> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server: Server = createServer(options, (req, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    if (req.method === 'GET') return handler(req, res, { base, rpc: undefined });
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk));
    req.on('end', () => handler(req, res, { base, rpc: JSON.parse(body) as RawRequest }));
  });
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    get connections() {
      return connections;
    },
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

/** One SSE frame carrying a JSON-RPC result for request `id`. */
export function sseFrame(id: unknown, result: unknown): string {
  return `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
}

/** Answers with a JSON body (200 unless told). */
export function sendJson(res: ServerResponse, body: unknown, headers: Record<string, string> = {}, status = 200): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}

/**
 * The card of a raw v1.0 agent: one streaming JSON-RPC interface at `<base>rpc`, text in and out, no skills; `more`
 * replaces or adds fields (a description left undefined is left out of the JSON).
 */
export function rawCard(base: string, name: string, description?: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    description,
    version: '1',
    capabilities: { streaming: true },
    supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    ...more,
  };
}

/** A raw v1.0 agent's card of the required fields only: one blocking JSON-RPC interface at `<base>rpc`; `more` on top. */
export function bareCard(base: string, name: string, more: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name,
    version: '1',
    capabilities: { streaming: false },
    supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    skills: [],
    ...more,
  };
}

/** The least card a raw agent serves: its name, one streaming JSON-RPC interface at `<base>rpc` of `version`. */
export function leastCard(base: string, name: string, version: '1.0' | '0.3'): Record<string, unknown> {
  return {
    name,
    supportedInterfaces: [{ url: `${base}rpc`, protocolBinding: 'JSONRPC', protocolVersion: version }],
    capabilities: { streaming: true },
  };
}
