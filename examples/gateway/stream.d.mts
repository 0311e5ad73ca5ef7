/** Types of stream.mjs, for the TypeScript tests. */
import type { ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import type { ReplyPosition, TurnErrorEvent, TurnEvent } from '../../dist/index.js';

export interface StreamOptions {
  /** The replica's name, in `X-Replica`. */
  name: string;
  /** The position the client has (a resume from `Last-Event-ID`). */
  from: ReplyPosition | undefined;
  heartbeatMs: number;
  maxBufferedBytes: number;
  /** Whether the replica is handing its turns over. */
  draining: () => boolean;
  log: (line: string) => void;
  /** Once, when the stream finished however. */
  onFinish?: () => void;
}

export declare function streamEvents(
  res: ServerResponse,
  events$: Observable<TurnEvent | TurnErrorEvent>,
  options: StreamOptions,
): { end(): void; readonly finished: boolean };
