/** Types of fair-use.mjs, for the TypeScript tests. */

/** A replica's limits per person; 0 turns a limit off. */
export interface FairUseOptions {
  /** Messages a person may start per minute in this replica; default {@link MESSAGES_PER_MINUTE}. */
  messagesPerMinute?: number;
  /** Streams (turns and resumes) a person may hold at once in this replica; default {@link TURNS_PER_PERSON}. */
  turns?: number;
  /** People kept track of at most; default {@link MAX_PEOPLE}. */
  maxPeople?: number;
}

/** A stream admitted: `release` when it finishes (again: nothing). */
export interface Admitted {
  release(): void;
}

/** A replica's fair-use table. */
export interface FairUse {
  /**
   * Admits a `message` (a new turn: both limits) or a `resume` (the turns limit only) of `user`, or throws a
   * `Refusal`: 429 with `Retry-After` and `X-Message-Taken: no`, its body naming the limit; 503 when the table is
   * full of people with streams open.
   */
  admit(user: string, kind: 'message' | 'resume'): Admitted;
  /** The people kept track of now, and the requests refused so far. */
  stats(): { people: number; refused: number };
}

export declare const MESSAGES_PER_MINUTE: number;
export declare const TURNS_PER_PERSON: number;
export declare const MAX_PEOPLE: number;
export declare const TURNS_RETRY_AFTER_S: number;
export declare const FAIR_USE_OFF: Readonly<{ messagesPerMinute: 0; turns: 0 }>;
export declare const FAIR_USE_ENV: Readonly<{ messagesPerMinute: string; turns: string }>;
export declare function fairUseOf(
  values: { 'messages-per-minute'?: string; 'turns-per-person'?: string },
  env: Record<string, string | undefined>,
): FairUseOptions;
export declare function fairUse(options?: FairUseOptions & { now?: () => number; log?: (line: string) => void }): FairUse;
