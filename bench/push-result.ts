/** What one cell of `npm run bench:push` (bench/push-run.ts) measured. */
export interface RunResult {
  mode: 'push' | 'stream';
  n: number;
  /** The push turns' safety-net GetTask period (ms); absent for streams. */
  checkEveryMs: number | undefined;
  /** Completions a second (0: all at once). */
  finishPerSecond: number;
  /** Turns started a second (0: all at once). */
  startPerSecond: number;
  /** The receiver's `maxConcurrent` (0: its default, 64). Push only. */
  maxConcurrent: number | undefined;
  /** Turns that knew their task (a `task` event) before the window. */
  knownTasks: number;
  /** Tasks the agent held parked in `working` before the window. */
  parked: number;
  /** Turns that errored. */
  errors: number;
  /** From the first turn started to all of them waiting (ms). */
  waitingAfterMs: number;
  /** How long the sockets were watched (ms), sampled every 250 ms. */
  windowMs: number;
  /**
   * The client's open connections to the agent during the window: the most at once, at its end, the share of
   * samples with none, when it first had none (ms into the window), every sample.
   */
  toAgent: { max: number; last: number; zeroShare: number; firstZeroMs: number | undefined; samples: number[] };
  /** The most sockets the agent's push sender held open to the receiver during the window. */
  fromAgentMax: number;
  /** The agent server's own count of its connections at the window's end. */
  agentConnections: number;
  /** Pushes the agent's sender gave up on by the end (a refusal or its 5 s timeout; it does not retry). */
  pushFailures: number;
  /** The client's memory after a full GC (MB): before any turn, and with all N waiting. */
  memory: {
    baseline: { heapUsedMb: number; externalMb: number; rssMb: number };
    waiting: { heapUsedMb: number; externalMb: number; rssMb: number };
  };
  /** The receiver's counters at the window's end (push only). */
  receiver: { outcomes: Record<string, number>; remembered: number; following: number } | undefined;
  /** The receiver's outcomes once every turn ended (push only). */
  receiverAfter: Record<string, number> | undefined;
  /** Turns that ended after the finish. */
  ended: number;
  outcomes: Record<string, number>;
  /** From the finish to the last end (ms). */
  allEndedMs: number;
  /** CPU time from the finish to the last end (ms): the client process's and the agent's. */
  finishCpuMs: { client: number; agent: number };
  /** Per turn: its end − the agent's sender about to POST the completion (ms). Push only. */
  fromPost: number[];
  /** Per turn: its completed status shown − the sender about to POST it (ms): the push's own leg, before the last GetTask. */
  postToShown: number[];
  /** Per turn: its end − the agent's executor publishing the completion (ms). */
  fromPublish: number[];
}
