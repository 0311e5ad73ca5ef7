import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector, Client, Pool, type Dispatcher } from 'undici';
import { CLOSED_AFTER_CLIENT_CERTIFICATE } from '../network-cause.js';
import { longestMatch } from '../port/url-scope.js';
import { secureOptions, type TlsEntry } from './tls.js';

/** What every undici `Agent` of the Node fetch shares: its timeouts and pooling. */
export type PoolOptions = Omit<Agent.Options, 'connect' | 'factory'> & {
  connectTimeoutMs: number;
  /** False: TLS certificates are not verified (development only; `NodeFetchOptions.verifyCertificates`). */
  verifyCertificates?: boolean;
};

/**
 * undici's connector, with two changes. A TLS alert the server sends (`ERR_SSL_…_ALERT_…`: it refused
 * the handshake, asked for a client certificate) destroys the socket at once, so the alert is what the
 * request fails with: undici otherwise reports the end of the connection that follows it ("other side
 * closed"), and an agent that wants a client certificate would look like a network drop. And on a
 * connection that presented a client certificate (`presents`), an end before any byte of an answer
 * fails it with {@link CLOSED_AFTER_CLIENT_CERTIFICATE}: a server that checks certificates after the
 * handshake (Node's own) refuses one by closing the connection, without an alert.
 */
function alertAware(options: buildConnector.BuildOptions, presents = false): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) =>
    connect(opts, (error, socket) => {
      if (error === null && socket) watch(socket as TLSSocket, presents);
      (callback as (error: Error | null, socket: unknown) => void)(error, socket);
    });
}

function watch(socket: TLSSocket, presents: boolean): void {
  socket.prependListener('error', (cause: Error & { code?: unknown }) => {
    if (typeof cause.code === 'string' && /^ERR_SSL_.*ALERT/.test(cause.code)) socket.destroy();
  });
  if (!presents) return;
  let answered = false;
  const readable = () => {
    if (socket.readableLength === 0) return;
    answered = true;
    socket.off('readable', readable);
  };
  socket.prependListener('readable', readable);
  socket.prependListener('end', () => {
    if (answered) return;
    const message = 'the agent closed the connection after the TLS handshake, before any answer, and a client certificate was presented';
    socket.destroy(Object.assign(new Error(message), { code: CLOSED_AFTER_CLIENT_CERTIFICATE }));
  });
}

/**
 * A connection that may speak h2 takes its protocol's own number of requests at once. undici 7 keeps
 * an h2 connection to one request at a time twice over: its `Client` sets `pipelining` to 1 unless
 * told (unset, it is 1 on an HTTP/1.1 connection and the session's streams on an h2 one), and it
 * sends a request it deems not idempotent (a POST: every A2A call) only on a connection with nothing
 * else running. Marking requests idempotent changes that decision alone (undici retries nothing by
 * itself), and an HTTP/1.1 connection still runs one request at a time, pipelining nothing behind a
 * long reply.
 */
function multiplexing(origin: string | URL, options: Client.Options): Dispatcher {
  const client = new Client(origin, options);
  (client as unknown as { pipelining: number | null }).pipelining = null;
  return client;
}

function agentOf(pool: PoolOptions, connectFor: (origin: string) => buildConnector.connector): Dispatcher {
  const { connectTimeoutMs: _timeout, verifyCertificates: _verify, ...options } = pool;
  const h2 = pool.allowH2 === true ? { factory: multiplexing } : {};
  const agent = new Agent({
    ...options,
    factory: (origin, opts) => new Pool(origin, { ...opts, ...h2, connect: connectFor(new URL(String(origin)).origin) }),
  });
  return pool.allowH2 === true ? agent.compose((dispatch) => (opts, handler) => dispatch({ ...opts, idempotent: true }, handler)) : agent;
}

/** The dispatchers of a Node fetch: one by default, one per `tls` entry; each request takes its URL's. */
export interface TlsDispatchers {
  /** The dispatcher for a request to `url`: its `tls` entry's (longest prefix), else the default. */
  for(url: string): Dispatcher;
  close(): Promise<void>;
}

/**
 * An undici `Agent` per `tls` entry, whose connections to the entry's origin carry its certificate,
 * key and CA; and a default `Agent` for every other request. A connection to another origin (a
 * redirect) carries nothing of the entry: it takes that origin's own entry (one keyed by the origin
 * alone), or none. All connect through {@link alertAware}.
 */
export function tlsDispatchers(pool: PoolOptions, entries: readonly TlsEntry[]): TlsDispatchers {
  // The connector offers h2 by ALPN when the pool may speak it (undici adds that only to connectors of its own).
  const base = {
    timeout: pool.connectTimeoutMs,
    ...(pool.allowH2 === true ? { allowH2: true } : {}),
    ...(pool.verifyCertificates === false ? { rejectUnauthorized: false } : {}),
  };
  const plain = alertAware(base);
  const connectors = new Map(
    entries.map((entry) => [entry, alertAware({ ...secureOptions(entry.tls), ...base }, entry.tls.cert !== undefined)]),
  );
  const originConnector = (origin: string) => {
    const own = entries.find((entry) => entry.origin === origin && entry.path === '');
    return (own === undefined ? undefined : connectors.get(own)) ?? plain;
  };
  const fallback = agentOf(pool, originConnector);
  const agents = new Map(
    entries.map((entry) => {
      const connector = connectors.get(entry) ?? plain;
      return [entry, agentOf(pool, (origin) => (origin === entry.origin ? connector : originConnector(origin)))] as const;
    }),
  );
  return {
    for: (url) => {
      const entry = longestMatch(entries, url);
      return (entry === undefined ? undefined : agents.get(entry)) ?? fallback;
    },
    close: async () => {
      await Promise.all([fallback, ...agents.values()].map((agent) => agent.close()));
    },
  };
}
