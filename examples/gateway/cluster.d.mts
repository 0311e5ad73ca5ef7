/** Types of cluster.mjs, for the TypeScript tests. */
import type { AuthOptions } from './auth.mjs';
import type { GatewayPush } from './push.mjs';
import type { FairUseOptions } from './fair-use.mjs';

export interface Replica {
  name: string;
  port: number;
  pid: number;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** SIGKILL, as a crash. */
  kill(): Promise<{ code: number | null; signal: string | null }>;
  /** SIGTERM, as a deploy: the replica hands its turns over and exits 0. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
  /** SIGSTOP: the process freezes (its sockets stay open). */
  freeze(): void;
  /** SIGCONT. */
  thaw(): void;
}

/** What every replica is started with besides the agent, port, name and secret. */
export interface ReplicaSettings {
  /** The identity provider (`--jwks`, `--issuer`, `--audience`); default the development issuer. */
  auth?: AuthOptions;
  /** `--heartbeat-ms` (haproxy's timeouts follow it). */
  heartbeatMs?: number;
  /** `--max-buffered-bytes`. */
  maxBufferedBytes?: number;
  /** `--max-streams`. */
  maxStreams?: number;
  /** `--lookup`. */
  lookup?: 'every-message';
  /** `--push`, `--push-when`, `--push-check-ms`. */
  push?: GatewayPush;
  /** `--messages-per-minute`, `--turns-per-person` (each replica's own: behind the balancer a user gets up to N times them). */
  fairUse?: Omit<FairUseOptions, 'maxPeople'>;
  /** `--a2ui-catalogs`: the A2UI catalogs told to agents; empty, `none`. Default the replica's (A2UI v1.0's basic catalog). */
  a2uiCatalogs?: readonly string[];
}

export interface ClusterOptions extends Omit<ReplicaSettings, 'push'> {
  agent: string;
  /** The identity secret every replica shares. */
  secret: string;
  /** Default 3 (named A, B, C). */
  replicas?: number;
  /** haproxy's port; default (or 0) a free one. */
  port?: number;
  /**
   * Follow tasks by push: each replica's receiver at `/a2a/push/<name>` under haproxy's URL, which routes that
   * path to that replica. `true`, or the settings beyond the URL.
   */
  push?: boolean | Omit<GatewayPush, 'via'>;
  /** The replicas' and haproxy's log lines. */
  log?: (line: string) => void;
}

export interface Cluster {
  /** haproxy's URL: what clients use. */
  url: string;
  /** haproxy's configuration. */
  config: string;
  names: string[];
  replica(name: string): Replica;
  /** SIGKILL one replica (it stays down). */
  kill(name: string): Promise<void>;
  /** SIGTERM one replica, wait for it to exit, start it again on its port, wait until haproxy routes to it. */
  restart(name: string): Promise<void>;
  /** Stops haproxy (an outage of the balancer); the replicas run on. */
  stopBalancer(): Promise<void>;
  /** Starts haproxy again on its port, with its configuration; resolves once it serves. */
  startBalancer(): Promise<void>;
  stop(): Promise<void>;
}

export declare function freePort(): Promise<number>;
export declare function startReplica(
  options: { agent: string; port: number; name: string; secret: string; log?: (line: string) => void } & ReplicaSettings,
): Promise<Replica>;
export declare function startCluster(options: ClusterOptions): Promise<Cluster>;
