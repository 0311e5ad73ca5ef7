/** Types of client.mjs, for the TypeScript tests. */

export interface FollowOptions {
  /** The gateway's (or the load balancer's) base URL. */
  gateway: string;
  thread: string;
  /** The message to send; without it, the thread's reply in progress is followed. */
  text?: string;
  /** A position to start from (an earlier stream's last event id). */
  from?: string;
  /** Consecutive attempts without an event before giving up; default 20. */
  maxRetries?: number;
  /** Pause before a reconnect; default 200 ms. */
  retryMs?: number;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  /** Each event as JSON, with its SSE id. */
  onEvent?: (event: { type: string; [key: string]: unknown }, id: string | undefined) => void;
  /** Each stream opened, with the replica that serves it (`X-Replica`). */
  onStream?: (replica: string) => void;
  /** Before each reconnect, with the position it resumes from. */
  onReconnect?: (lastEventId: string | undefined) => void;
}

export interface Followed {
  /** The reply as the client folded it from the `text` events of every stream. */
  reply: string;
  /** The turn's `end` event, when it ended. */
  end?: { type: 'end'; outcome: string; text: string; taskId?: string; contextId?: string };
  /** The turn's `error` event, when it failed. */
  error?: { kind: string; message: string; retryable: boolean };
  /** Streams opened again after the first broke. */
  reconnects: number;
  /** The replica of each stream, in order. */
  replicas: string[];
  lastEventId?: string;
}

export declare function followTurn(options: FollowOptions): Promise<Followed>;
