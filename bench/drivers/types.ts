/** A contender: one way of running a streaming turn against an A2A agent, measured by the scenarios. */

/** a4h-a2a with its own stream reader, a4h-a2a with the SDK's, the raw SDK, and the floor. */
export const CONTENDERS = ['a4h', 'a4h-sdk-reader', 'sdk', 'floor'] as const;
/**
 * Against the gRPC bench agent: a4h-a2a (its streams' messages handed straight to the turn), a4h-a2a
 * with the SDK's delivery (`reader: 'sdk'`: through the SDK's async iterators), and the SDK's own gRPC client.
 */
export const GRPC_CONTENDERS = ['a4h-grpc', 'a4h-grpc-sdk-reader', 'sdk-grpc'] as const;
export type Contender = (typeof CONTENDERS)[number] | (typeof GRPC_CONTENDERS)[number];

/** What a turn brought back, to check that every contender saw the whole stream. */
export interface TurnOutcome {
  /** Artifact chunks seen (a4h: `text` events). */
  chunks: number;
  /** a4h: the length of the `end` event's reply; the others do not assemble it (-1). */
  replyLength: number;
}

export interface Driver {
  /**
   * One streaming turn to `agent` (base URL with a trailing slash) with message `text`; resolves
   * after the last event. `onFirstChunk` is called at the first artifact chunk, `onChunk` at every one.
   * A `thread` that starts with {@link FIRST_OF_THREAD} is that thread's first message in the process
   * (a4h-a2a then asks the agent for a task left waiting on it); every other turn is a known thread's.
   */
  turn(agent: string, text: string, thread: string, onFirstChunk?: () => void, onChunk?: () => void): Promise<TurnOutcome>;
  /** Releases the connection pool. */
  close(): Promise<void>;
}

/** The prefix of a thread whose first message in the process a turn is. */
export const FIRST_OF_THREAD = 'first-of-thread:';

/** Connections per origin for every contender unless a job asks for more: enough for 1,000 concurrent streams. */
export const CONNECTIONS = 2048;

/** A fixed identity secret: contextIds are derived as in production, with no warning. */
export const BENCH_SECRET = 'a4h-bench-identity-secret-0123456789';
