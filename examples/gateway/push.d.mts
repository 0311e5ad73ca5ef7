/** Types of push.mjs, for the TypeScript tests. */
import type { PushDelivery, PushStats, PushWhen } from '../../dist/index.js';
import type { NodePushHandler } from '../../dist/node/index.js';

export { isPushPath, PUSH_NAME, PUSH_PATH, pushPathOf } from './push-path.mjs';
export declare function pushWhenOf(value: string): PushWhen;

/** A replica's push settings (`--push`, `--push-when`, `--push-check-ms`). */
export interface GatewayPush {
  /** The load balancer's origin as agents reach it (`http://host:port/`): the receiver is `<via>a2a/push/<name>`. */
  via: string;
  /** When a turn asks for pushes; the library's default (`'offered'`) when not given. */
  when?: PushWhen;
  /** A `GetTask` this often while a turn waits for pushes; the library's default (30 s) when not given. */
  checkEveryMs?: number;
}

export interface ReplicaPushOptions extends GatewayPush {
  /** The replica's name (letters, digits, `.`, `_`, `-`): the last segment of its receiver's path. */
  name: string;
  /** The identity secret every replica shares. */
  secret: string | undefined;
  /** One line per unclaimed push, with the count so far. */
  log?: (line: string) => void;
}

export interface ReplicaPush {
  /** The receiver's public URL, as the agent is asked to post to it. */
  url: string;
  /** The client's `push` option. */
  delivery: PushDelivery;
  /** The receivers as one Node request handler (they read the body themselves: nothing may read it first): its own path to its turns, the others' to none. */
  handle: NodePushHandler;
  /** Both receivers' counters, summed; `following` is its own's. */
  stats(): PushStats;
}

export declare function replicaPush(options: ReplicaPushOptions): ReplicaPush;
