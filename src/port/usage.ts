/**
 * Usage as agents report it: the tokens and cost an agent says a turn took, read from the `metadata` of
 * its messages, status updates, artifacts and task in the conventions in use (docs/usage.md). A field
 * the agent did not give is absent, never zero.
 */

/** A JSON value as the client keeps it of an agent's report: no functions, no `undefined`, finite numbers only. */
export type UsageJson = string | number | boolean | null | UsageJson[] | { [key: string]: UsageJson };

/** What a turn cost in money, as the agent said it. */
export interface UsageCost {
  /** The amount, as sent (finite, not negative). */
  amount: number;
  /** Its currency (ISO 4217, e.g. `USD`), when the agent named one. */
  currency?: string;
}

/**
 * One report of usage, or a turn's total: input, output and total tokens (each a whole number, not
 * negative, present only when the agent gave it) and the cost where given. `reported` is the agent's
 * object as it sent it (JSON values only, bounded: deep or large parts cut), on a single report and on a
 * total that is one report (the task's own total); absent on a sum of several.
 */
export interface Usage {
  /** Input (prompt) tokens. */
  inputTokens?: number;
  /** Output (completion, candidates) tokens. */
  outputTokens?: number;
  /** Total tokens, as the agent said it (never computed from the other two). */
  totalTokens?: number;
  /** The cost, when the agent gave one. */
  cost?: UsageCost;
  /** The agent's object as it sent it, bounded. */
  reported?: { [key: string]: UsageJson };
}

/**
 * Where a report was read: `message` an agent message's metadata (a status message, a message answer, a
 * message in the task's history) or ADK's key on its status update event; `artifact` an artifact's
 * metadata or ADK's key on its update event; `task` the task's own total (`usage` in the task's metadata,
 * or in a status or artifact update event's, which the SDKs merge into the task's).
 */
export type UsageScope = 'message' | 'artifact' | 'task';

/**
 * The agent reported usage, or changed a report it had made (an artifact's chunks that grow it): `usage`
 * the report as read, `total` the turn's total after it (the task's own total when the agent gave one,
 * else the sum of the reports). A report seen again (a snapshot, the history, a resubscribe, a repeated
 * chunk) makes no event.
 */
export interface UsageEvent {
  /** Discriminant. */
  type: 'usage';
  /** Where the report was read. */
  scope: UsageScope;
  /** The report, as read. */
  usage: Usage;
  /** The turn's total after it. */
  total: Usage;
}
