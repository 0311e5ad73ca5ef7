/**
 * The demo agent's HTTP side: an express app with CORS on every route (so a browser page on another
 * port can talk to it), listening on one address, with a `close()` that leaves no socket behind.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import express from 'express';
import type { Express, RequestHandler } from 'express';

/** The headers a browser may send to the agent. */
const ALLOWED_HEADERS = ['Content-Type', 'A2A-Version', 'A2A-Extensions', 'X-A2A-Extensions', 'Authorization'];

/** Answers CORS preflights with 204 and marks every response as readable from any origin. */
export const cors: RequestHandler = (req, res, next) => {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '));
  res.setHeader('Access-Control-Expose-Headers', 'A2A-Version, A2A-Extensions, X-A2A-Extensions');
  res.setHeader('Access-Control-Max-Age', '600');
  if (req.method === 'OPTIONS') {
    res.status(204).end();
    return;
  }
  next();
};

/** A listening app. */
export interface Listening {
  /** Add routes here (CORS is already in front). */
  app: Express;
  /** `http://host:port/`, with the trailing slash. */
  url: string;
  /** Stops listening and destroys every open connection (streams and keep-alive alike). */
  close(): Promise<void>;
}

/** `http://127.0.0.1:4000/`, or `http://[::1]:4000/` for IPv6 hosts. */
function baseUrl(host: string, port: number): string {
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}/`;
}

/** Starts listening on `host:port` (port 0 picks a free one); rejects when the port is taken. */
export async function listen(host: string, port: number): Promise<Listening> {
  const app = express();
  app.disable('x-powered-by');
  app.use(cors);
  const server = createServer(app);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  const close = (): Promise<void> => {
    closing ??= new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
      for (const socket of sockets) socket.destroy();
    });
    return closing;
  };
  return { app, url: baseUrl(host, address.port), close };
}
