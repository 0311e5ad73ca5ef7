/** Types of gateway.mjs, for the TypeScript tests. */
import type { A2AClient } from '../../dist/index.js';

export declare const HANDLE: string;

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
  /** The client to use (default: the Node entry's `createA2A`). */
  client?: A2AClient;
  /** One line per request. */
  log?: (line: string) => void;
}

export interface Gateway {
  /** `http://127.0.0.1:PORT/` */
  url: string;
  name: string;
  /** Drains: no new requests, health check 503, running turns handed over (no CancelTask), streams ended. */
  close(): Promise<void>;
}

export declare function startGateway(options: GatewayOptions): Promise<Gateway>;
