import { createClient, type A2AClient, type A2AOptions } from '../client/create-a2a.js';
import { A2AError } from '../errors.js';
import { nodeContextIdDeriver } from './context-id.js';
import { createNodeFetch, type NodeFetchOptions } from './fetch.js';
import { grpcSupport } from './grpc.js';
import type { ClientTlsOption } from './tls.js';

/** The environment variable the Node entry reads the identity secret from. */
export const IDENTITY_SECRET_ENV = 'A4H_IDENTITY_SECRET';
/** The environment variable the Node entry reads the previous identity secrets from (comma-separated, newest first). */
export const PREVIOUS_IDENTITY_SECRETS_ENV = 'A4H_PREVIOUS_IDENTITY_SECRETS';

/** The previous secrets in `A4H_PREVIOUS_IDENTITY_SECRETS`: comma-separated, blanks ignored. */
export function previousSecretsFromEnv(value: string | undefined): string[] {
  return (value ?? '').split(',').filter((secret) => secret.trim() !== '');
}

/** Node options: the core's, plus the HTTP client's timeouts and pooling. */
export interface NodeA2AOptions extends A2AOptions {
  /** The HTTP client's timeouts and pooling (not used when `fetch` or `ports` is given). */
  http?: Omit<NodeFetchOptions, 'tls'>;
  /**
   * Mutual TLS per agent, keyed like `credentials` (an origin or URL prefix; the longest prefix of a
   * request's URL wins): the client certificate and key the agent asks for (PEM strings or Buffers; a
   * `passphrase` for an encrypted key) and the CA its certificate is checked with, e.g.
   * `{ 'https://agent.example': { cert, key, ca } }`. Each certificate goes to its own origin only,
   * over HTTP and to a gRPC interface of that origin. An agent that refuses the handshake for want of
   * a client certificate, or refuses the one sent, fails the turn with an `auth` error saying so. A bad
   * entry, or `tls` beside your own `fetch` or `ports`, is a `config` error.
   */
  tls?: ClientTlsOption;
}

/**
 * The client for Node: the identity secret from `A4H_IDENTITY_SECRET` unless one is passed (unset
 * or empty: a random per-process key and one warning), the secrets it replaced from
 * `A4H_PREVIOUS_IDENTITY_SECRETS` (comma-separated, newest first), HTTP through undici with timeouts and
 * pooling, and gRPC agents through the SDK's gRPC transport (`@grpc/grpc-js`, an optional peer
 * dependency, loaded only when an agent's chosen interface is gRPC). `close()` releases the pool and
 * the gRPC channels. With `logger: console`, log lines read sentence first
 * (`a4h-a2a: cancelling the abandoned task { taskId: '…' }`); other loggers get `(fields, message)`.
 */
export function createA2A(options: NodeA2AOptions = {}): A2AClient {
  const fromEnv = process.env[IDENTITY_SECRET_ENV];
  const identitySecret = options.identitySecret ?? (fromEnv === undefined || fromEnv === '' ? undefined : fromEnv);
  const previous = options.previousIdentitySecrets ?? previousSecretsFromEnv(process.env[PREVIOUS_IDENTITY_SECRETS_ENV]);
  if (options.tls !== undefined && (options.fetch !== undefined || options.ports !== undefined)) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: 'tls is for the Node fetch: with your own fetch or ports, give the certificates to them',
    });
  }
  const tls = options.tls === undefined ? {} : { tls: options.tls };
  const http = options.fetch === undefined && options.ports === undefined ? createNodeFetch({ ...options.http, ...tls }) : undefined;
  const { http: _http, tls: _tls, ...core } = options;
  return createClient(
    {
      ...core,
      ...(identitySecret === undefined ? {} : { identitySecret }),
      ...(previous.length === 0 ? {} : { previousIdentitySecrets: previous }),
      ...(http ? { fetch: http.fetch } : {}),
    },
    { ...(http ? { owned: http } : {}), deriver: nodeContextIdDeriver, grpc: grpcSupport(tls) },
  );
}
