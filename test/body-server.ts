/** A loopback HTTP server that reads each request's whole body before it answers: the servers many tests stand up. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A started body server: `base` is `http://127.0.0.1:<port>` (no trailing slash). */
export interface BodyServer {
  server: Server;
  base: string;
}

/** Starts a server on 127.0.0.1 that reads each request's body as UTF-8, then hands it to `handle`. */
export async function startBodyServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<BodyServer> {
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/**
 * Answers 200 with a JSON body that never ends: `{`, then a space every second until the response closes
 * (each interval kept in `timers`, for the caller to clear when it closes its server).
 */
export function answerTrickle(res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('{');
  const timer = setInterval(() => res.write(' '), 1000);
  timers.add(timer);
  res.on('close', () => clearInterval(timer));
}
