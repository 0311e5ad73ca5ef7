/** Types of haproxy.mjs, for the TypeScript tests. */

export declare const HAPROXY: string;
export declare function haproxyConfig(options: {
  port: number;
  replicas: readonly { name: string; port: number }[];
  host?: string;
  /** The replicas' heartbeat, which the timeouts follow; default 5,000 ms. */
  heartbeatMs?: number;
  /** Route `/a2a/push/<name>` to replica `<name>` while it is up (`use-server`); any other when it is down. */
  push?: boolean;
}): string;
export declare function startHaproxy(options: {
  port: number;
  replicas: readonly { name: string; port: number }[];
  heartbeatMs?: number;
  push?: boolean;
  log?: (line: string) => void;
}): Promise<{ url: string; config: string; stop(): Promise<void> }>;
