import { longestMatch } from '../port/url-scope.js';
import { certificateRedirects } from './cert-redirects.js';
import { tlsDispatchers } from './tls-dispatch.js';
import { tlsEntries, type ClientTlsOption } from './tls.js';
import { undiciFetchOn } from './undici-fetch.js';

/** Timeouts and pooling of the Node HTTP client. */
export interface NodeFetchOptions {
  /** Establishing a TCP/TLS connection. Default 10 s. */
  connectTimeoutMs?: number;
  /**
   * Waiting for response headers. A blocking SendMessage gets its headers only when the task
   * settles, so this is long; the ladder's `sendTimeoutMs` is the bound that speaks. Default 10 min.
   */
  headersTimeoutMs?: number;
  /**
   * The longest gap between two body chunks: a backstop behind the ladder's idle and auth-wait
   * bounds (SDK servers send no keep-alives on quiet streams). Default 15 min.
   */
  bodyTimeoutMs?: number;
  /**
   * Connections per origin. Default 256. Over HTTP/1.1 a streaming turn holds one for its whole reply,
   * so this bounds the replies in flight to one agent: past it a request waits for a connection.
   */
  connections?: number;
  /**
   * Offer HTTP/2 to agents over TLS (ALPN `h2`, then `http/1.1`): with an agent that takes it, turns
   * share connections as streams (up to the agent's `SETTINGS_MAX_CONCURRENT_STREAMS`, 100 by
   * default on undici's side), so `connections` no longer bounds the replies in flight. Plain `http:`
   * stays HTTP/1.1. Default false (undici's HTTP/2 client is experimental).
   */
  allowH2?: boolean;
  /**
   * False turns TLS certificate verification off, for every agent this fetch reaches: for development
   * against an agent with a self-signed certificate only (anyone who can intercept the connection can
   * then impersonate the agent and read what goes to it). `a4h --insecure` uses it, and warns each
   * time. Default true.
   */
  verifyCertificates?: boolean;
  /** How long an idle keep-alive connection is kept. Default 30 s. */
  keepAliveTimeoutMs?: number;
  /**
   * Mutual TLS per agent: a client certificate and key, and the CA of the agent's certificate, keyed
   * by origin or URL prefix (the longest prefix of a request's URL wins). Each entry's certificate goes
   * to its own origin only; a bad entry is a `config` error.
   */
  tls?: ClientTlsOption;
}

/** A fetch on an undici `Agent` of its own, with `close()` to release its sockets. */
export interface NodeFetch {
  /** The fetch, to pass as the client's `fetch` option. */
  fetch: typeof fetch;
  /** Closes the pool: open requests finish, idle sockets close. */
  close(): Promise<void>;
}

/**
 * The Node HTTP client: a fetch on pooled undici `Agent`s (see `undiciFetchOn`) with connect, headers
 * and body timeouts (one more per `tls` entry), to pass as `fetch` to the client. (The core uses the
 * global fetch and no Node module.) A request with a body sent with a client certificate follows a
 * same-origin 307/308 only, never a redirect to another origin. An agent that refuses the TLS handshake for a client certificate fails the request
 * with that TLS alert, which the client reads as an `auth` error.
 */
export function createNodeFetch(options: NodeFetchOptions = {}): NodeFetch {
  const entries = tlsEntries(options.tls);
  const dispatchers = tlsDispatchers(
    {
      connectTimeoutMs: options.connectTimeoutMs ?? 10_000,
      headersTimeout: options.headersTimeoutMs ?? 600_000,
      bodyTimeout: options.bodyTimeoutMs ?? 900_000,
      connections: options.connections ?? 256,
      keepAliveTimeout: options.keepAliveTimeoutMs ?? 30_000,
      ...(options.allowH2 === true ? { allowH2: true } : {}),
      ...(options.verifyCertificates === false ? { verifyCertificates: false } : {}),
    },
    entries,
  );
  const fetch = undiciFetchOn((url) => dispatchers.for(url));
  // A request with a body that presents a client certificate is never redirected to another origin.
  const presents = (url: string) => longestMatch(entries, url)?.tls.cert !== undefined;
  const guarded = entries.some((entry) => entry.tls.cert !== undefined) ? certificateRedirects(fetch, presents) : fetch;
  return { fetch: guarded, close: () => dispatchers.close() };
}
