/**
 * One chat gateway replica on a4h-a2a, as a server and its lifecycle: a user's message in, the agent's
 * turn out as Server-Sent Events whose ids are reply positions, so a client that loses its stream (a
 * replica killed, a deploy, an outage) reconnects through the load balancer to any replica and gets
 * exactly the rest. Replicas share `A4H_IDENTITY_SECRET` and the identity provider's keys, nothing else:
 * no session store, no sticky routing. Its routes are routes.mjs; its command line gateway.mjs.
 *
 * A replica serves at most `maxStreams` streams at once (each holds one of its connections to the
 * agent); past that a message or a resume is refused before anything goes to the agent, 503 with `Retry-After` and
 * `X-Message-Taken: no`: a message the replica takes goes to the agent at once, never waits inside it.
 * A request head or body trickled in is cut within its bound (a slow-loris client).
 *
 * Fair use (fair-use.mjs): a user may start at most `--messages-per-minute` messages a minute and hold
 * at most `--turns-per-person` streams at once in this replica; past either, 429 with `Retry-After`,
 * `X-Message-Taken: no` and a JSON body naming the limit, before anything goes to the agent.
 *
 * A client that leaves mid-reply leaves the task running (`onLeave: 'detach'`). On `close()` (the
 * command's SIGTERM: a deploy) the replica stops taking requests, fails its health check, hands over the
 * turns whose task the agent named (`close({ detach: true })`) and ends its streams; their clients
 * reconnect elsewhere.
 *
 * A2UI: the replica's client tells an agent whose card offers A2UI the catalogs its browsers draw
 * (`--a2ui-catalogs`; default A2UI v1.0's basic catalog, the demo's and the example pages'), and an
 * action on one of the agent's surfaces comes back as a message body (a2ui.mjs).
 *
 * With `--push`, a turn's task is followed by the agent's pushes (the library's `push` option) rather
 * than a stream held to the agent: the message asks the agent to post each event to this replica's
 * receiver, `<balancer>/a2a/push/<name>`, which haproxy routes to this replica (push.mjs, haproxy.mjs).
 */
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { firstValueFrom } from 'rxjs';
// The built library (`npm run build`); an app would write `from 'a4h-a2a/node'`.
import { createA2A } from '../../dist/node/index.js';
import { tokenVerifier } from './auth.mjs';
import { isSafeId, MAX_KEY, quote, REASON_CHARS } from './request.mjs';
import { fairUse } from './fair-use.mjs';
import { replicaPush } from './push.mjs';
import { devIssuer } from './token.mjs';
import { a2uiOptionOf, DEFAULT_A2UI_CATALOGS } from './a2ui.mjs';
import { replicaRoutes } from './routes.mjs';

/** A comment on an idle stream this often; a client that hears nothing for two of them reconnects. */
export const HEARTBEAT_MS = 5_000;
/** Bytes a client may leave unread before it is dropped (it resumes by its position). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Streams one replica serves at once, unless told. Each holds a connection to the agent for its whole
 * reply; the replica's client pools this many and {@link LOOKUP_CONNECTIONS} more (the library's
 * default 256), so a message it takes never waits for a connection.
 */
export const MAX_STREAMS = 240;
/** Connections to the agent beyond the streams': lookups, cancels, the card. */
export const LOOKUP_CONNECTIONS = 16;
/** A request head not finished this long after its connection's request began is cut (a slow-loris client). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (head and body) not received this long after it began is cut. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * How often Node checks its open requests against those bounds. Node checks only every
 * `connectionsCheckingInterval` (30 s by default), so a head trickled byte by byte was cut at the
 * first check past the bound (about 29 s seen, up to 40), not at 10 s: checked every tenth of the
 * bound (at most every second), a head is cut within the bound and a tenth.
 */
export function checkingIntervalMs(/** @type {number} */ headersTimeoutMs) {
  return Math.max(10, Math.min(1_000, Math.floor(headersTimeoutMs / 10)));
}

/**
 * Starts one replica; resolves once it listens.
 * @param {import('./replica.d.mts').GatewayOptions} options
 * @returns {Promise<import('./replica.d.mts').Gateway>}
 */
export async function startGateway(options) {
  const agent = new URL(options.agent).href;
  const name = options.name ?? `${hostname()}:${process.pid}`;
  // The name goes into a header and an SSE comment: no control character, bounded.
  if (!isSafeId(name)) throw new Error(`a replica's name is 1 to ${MAX_KEY} characters, no control characters`);
  const log = options.log ?? (() => {});
  const verify = options.verify ?? (await tokenVerifier(options.auth ?? (await devTrust())));
  const settings = { heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS, maxBufferedBytes: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES };
  // The client carries a pending question's task id: no lookup before a message goes, so a replica sends
  // what it took at once (a message sent late, after its client asked for it elsewhere, would be doubled).
  const policy = options.lookup === 'every-message' ? { waitingTaskLookup: 'every-message' } : { continueInterrupted: false };
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  if (!Number.isInteger(maxStreams) || maxStreams < 1) throw new Error('maxStreams is a whole number from 1');
  const http = { connections: maxStreams + LOOKUP_CONNECTIONS };
  if (options.push && options.client) throw new Error("push is wired into the gateway's own client: give push or client, not both");
  const push = options.push
    ? replicaPush({ ...options.push, name, secret: options.secret ?? process.env.A4H_IDENTITY_SECRET, log })
    : undefined;
  const a2a =
    options.client ??
    createA2A({
      ...(options.secret ? { identitySecret: options.secret } : {}),
      policy,
      http,
      ...(push ? { push: push.delivery } : {}),
      ...a2uiOptionOf(options.a2uiCatalogs ?? DEFAULT_A2UI_CATALOGS),
    });
  const fair = fairUse({ ...options.fairUse, log });
  let draining = false;
  /** The streams open now, each ended when its turn is handed over. */
  const streams = new Set();

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const timeouts = {
    headersTimeout,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
    connectionsCheckingInterval: checkingIntervalMs(headersTimeout),
  };
  const routes = replicaRoutes({ agent, name, a2a, verify, fair, push, log, settings, maxStreams, streams, draining: () => draining });
  const server = createServer(timeouts, routes);
  server.on('clientError', (_error, socket) => socket.destroy());
  // The agent's card, read before the first message (which would otherwise wait for it).
  await firstValueFrom(a2a.card(agent)).catch((error) =>
    log(`the agent's card could not be read yet: ${quote(error?.message ?? error, REASON_CHARS)}`),
  );
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const { address, port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  /** @type {Promise<void> | undefined} */
  let closing;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/`,
    name,
    close() {
      closing ??= (async () => {
        draining = true;
        const closed = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        // Turns whose task the agent named are handed over (no CancelTask); the others are waited for.
        await a2a.close({ detach: true });
        for (const open of streams) open.end();
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** The development issuer (token.mjs), which replicas trust unless told another. */
async function devTrust() {
  const issuer = await devIssuer();
  return { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience };
}
