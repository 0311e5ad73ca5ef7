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
