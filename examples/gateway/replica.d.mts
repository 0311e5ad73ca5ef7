/** Types of replica.mjs, for the TypeScript tests. */
import type { A2AClient } from '../../dist/index.js';
import type { AuthOptions } from './auth.mjs';
import type { GatewayPush } from './push.mjs';
import type { FairUseOptions } from './fair-use.mjs';
import type { DEFAULT_A2UI_CATALOGS } from './a2ui.mjs';

export declare const HEARTBEAT_MS: number;
export declare const MAX_BUFFERED_BYTES: number;
export declare const HEADERS_TIMEOUT_MS: number;
export declare const REQUEST_TIMEOUT_MS: number;
export declare const MAX_STREAMS: number;
export declare const LOOKUP_CONNECTIONS: number;
/** How often Node checks open requests against the head and request bounds, for a head bound of `headersTimeoutMs`. */
export declare function checkingIntervalMs(headersTimeoutMs: number): number;

export interface GatewayOptions {
  /** The A2A agent's base URL or card URL. */
  agent: string;
  /** Default 0: a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** This replica in logs and the `X-Replica` header; default `host:pid`. */
  name?: string;
  /** The identity secret; default `A4H_IDENTITY_SECRET`. */
  secret?: string;
  /** The identity provider whose tokens are accepted; default the development issuer (token.mjs). */
  auth?: AuthOptions;
  /** Instead of `auth`: the user of an `Authorization` header, or a thrown `Refusal`. */
  verify?: (authorization: string | undefined) => Promise<string>;
  /** A comment on a stream idle this long; default {@link HEARTBEAT_MS}. */
  heartbeatMs?: number;
  /** Unread bytes after which a client is dropped; default {@link MAX_BUFFERED_BYTES}. */
  maxBufferedBytes?: number;
  /**
   * Streams served at once (each holds a connection to the agent; the client pools this many and
   * {@link LOOKUP_CONNECTIONS} more); past it a message or resume is refused, 503 with `Retry-After`
   * and `X-Message-Taken: no`. Default {@link MAX_STREAMS}.
   */
  maxStreams?: number;
  /** A request head not finished this long is cut (within a tenth more); default {@link HEADERS_TIMEOUT_MS}. */
  headersTimeoutMs?: number;
  /**
   * `every-message`: look for a pending question before every message (clients that do not carry its
   * task id). Default: no lookup (`continueInterrupted: false`); the client carries the question's task id.
   */
  lookup?: 'every-message';
  /**
   * Follow tasks by the agent's push notifications (`--push`): a receiver at `/a2a/push/<name>`, its public URL
   * under `push.via` (the load balancer, which routes the path to this replica). Needs the identity secret and a
   * `name` of letters, digits, `.`, `_`, `-`; not with `client`.
   */
  push?: GatewayPush;
  /**
   * Per user in this replica (fair-use.mjs): messages a minute and streams at once; past either a 429 with
   * `Retry-After`, before anything goes to the agent. Default 30 a minute and 4 at once; 0 turns a limit off.
   */
  fairUse?: FairUseOptions;
  /**
   * The A2UI catalogs the replica's browsers draw, told to an agent whose card offers A2UI (the client's `a2ui`
   * option; `--a2ui-catalogs`); empty: none, nothing of A2UI said. Default {@link DEFAULT_A2UI_CATALOGS}. Not with `client`.
   */
  a2uiCatalogs?: readonly string[];
  /** The client to use (default: the Node entry's `createA2A`). */
  client?: A2AClient;
  /** One line per request (keys and ids quoted). */
  log?: (line: string) => void;
}

export interface Gateway {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  name: string;
  /** Drains: no new requests, health check 404, named turns handed over (no CancelTask), streams ended. */
  close(): Promise<void>;
}

export declare function startGateway(options: GatewayOptions): Promise<Gateway>;
