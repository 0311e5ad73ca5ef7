import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPushReceiver, type Logger, type NodePushHandler, pushHandler, type PushReceiver } from '../../../node/index.js';
import { UsageError } from '../../core/io.js';
import type { PushSecrets } from '../../core/push.js';
import { CONFIG_PARAM } from './push-follow.js';

/** Where `task subscribe --push` listens by default: loopback, a free port. */
export const DEFAULT_PUSH_LISTEN = { host: '127.0.0.1', port: 0 } as const;

/** A receiver listening on this machine: its address, the URL agents post to, and how to stop it. */
export interface LocalReceiver {
  receiver: PushReceiver;
  /** The URL the push configs name (`--push-url`, else the listening address). */
  url: string;
  /** Where it listens, as `HOST:PORT`. */
  listening: string;
  /** Shows only the posts whose URL names this config (`a4h-config`): another config's are checked and answered, and shown to no one. */
  only(configId: string): void;
  /** Stops listening and ends every connection. */
  close(): Promise<void>;
}

/** `--push-listen HOST:PORT` read (`[::1]:8080` for IPv6; `:PORT` is loopback); the default when absent. */
export function listenAddress(value: string | undefined): { host: string; port: number } {
  if (value === undefined) return DEFAULT_PUSH_LISTEN;
  const match = /^(?:\[([0-9a-fA-F:.]+)\]|([^\s:[\]]*)):(\d{1,5})$/.exec(value.trim());
  const port = match === null ? NaN : Number(match[3]);
  if (match === null || port > 65_535) throw new UsageError(`--push-listen takes HOST:PORT (127.0.0.1:8080, [::1]:0), not "${value}"`);
  return { host: match[1] ?? (match[2] || DEFAULT_PUSH_LISTEN.host), port };
}

/**
 * A push receiver (`createPushReceiver`) served by Node's http on `listen` (`pushHandler`, any path): it
 * checks each post's credential, thread, body and duplicates before anything is shown. Agents are
 * asked to post to `url`, or to the listening address when none is given.
 */
export async function startLocalReceiver(
  listen: { host: string; port: number },
  url: string | undefined,
  secrets: PushSecrets,
  logger: Logger,
): Promise<LocalReceiver> {
  let handler: NodePushHandler | undefined;
  let own: string | undefined;
  // The receiver's URL is known once the port is: until then (never, in practice) a post is told to come back.
  const server = createServer((request, response) => {
    if (handler === undefined) response.writeHead(503, { 'retry-after': '1' }).end();
    else handler(request, response);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE' || error.code === 'EADDRNOTAVAIL' || error.code === 'EACCES'
          ? new UsageError(
              `--push-listen ${listen.host}:${listen.port}: ${error.code === 'EADDRINUSE' ? 'that port is taken' : 'cannot listen there'}`,
            )
          : error,
      ),
    );
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const listening = `${host}:${address.port}`;
  const receiver = createPushReceiver({
    url: url ?? `http://${listening}/`,
    secret: secrets.secret,
    previousSecrets: secrets.previousSecrets,
    logger,
  });
  // Another config's post (the same events again, to the same receiver, as a message's config posts them): checked and answered, not shown.
  handler = pushHandler(receiver, {
    deliver: (request) => own === undefined || new URL(request.url ?? '/', 'http://receiver').searchParams.get(CONFIG_PARAM) === own,
  });
  return {
    receiver,
    url: url ?? `http://${listening}/`,
    listening,
    only: (configId) => {
      own = configId;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
