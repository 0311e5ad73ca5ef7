/** Types of cluster.mjs, for the TypeScript tests. */

export interface Replica {
  name: string;
  port: number;
  pid: number;
  exited: Promise<{ code: number | null; signal: string | null }>;
  /** SIGKILL, as a crash. */
  kill(): Promise<{ code: number | null; signal: string | null }>;
  /** SIGTERM, as a deploy: the replica hands its turns over and exits 0. */
  stop(): Promise<{ code: number | null; signal: string | null }>;
}

export interface ClusterOptions {
  agent: string;
  /** The identity secret every replica shares. */
  secret: string;
  /** Default 3 (named A, B, C). */
  replicas?: number;
  /** haproxy's port; default (or 0) a free one. */
  port?: number;
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
  stop(): Promise<void>;
}

export declare function freePort(): Promise<number>;
export declare function startReplica(options: {
  agent: string;
  port: number;
  name: string;
  secret: string;
  log?: (line: string) => void;
}): Promise<Replica>;
export declare function startCluster(options: ClusterOptions): Promise<Cluster>;
