/** Types of client-errors.mjs, for the TypeScript tests. */

/** The client gave up: where to resume from (`--from`), or the message to ask for (`--message-id`). */
export declare class GatewayUnreachable extends Error {
  /** The position reached, once the agent named the task. */
  readonly lastEventId?: string;
  /** The message's id, when it may have been sent and no position was reached. */
  readonly messageId?: string;
  /** When that message was first posted, when known (`--sent-at`). */
  readonly sentAt?: number;
}

/** The gateway refused the request (a 4xx other than 408, 425, 429); after a 401, a fresh token goes on from where it was. */
export declare class GatewayRefused extends GatewayUnreachable {
  readonly status: number;
}
