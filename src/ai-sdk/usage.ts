/**
 * A reply's usage as `useChat` message metadata (`metadata.usage`), the way the AI SDK carries usage on
 * UI messages: set by `message-metadata` chunks as the turn's running total changes, the total on its
 * `finish` chunk, and on a history message its exchange's. Absent when the agent reported nothing.
 */
import type { Usage } from '../port/usage.js';

/**
 * What a reply cost in money, as the agent said it. `currency` is `null` only on a streamed message
 * whose running total named a currency and then no longer did (see {@link A2AUsage}).
 */
export type A2AUsageCost = {
  /** The amount, as the agent sent it. */
  amount: number;
  /** Its currency (ISO 4217, e.g. `USD`), when the agent named one. */
  currency?: string | null;
};

/**
 * A reply's usage: the turn's total (`end.usage`) or, while it streams, its running total, as numbers
 * (the agent's own object, `reported`, stays off the message). Each field only when the agent gave it,
 * never zero for absent. `ai` merges each metadata chunk into the message's metadata, so absence cannot
 * clear a field: a field the running total had and then lost (a second currency makes the cost
 * unknown; the task's own total, arriving, replaces a sum) is `null` on a streamed message. A history
 * message never has `null`.
 */
export type A2AUsage = {
  /** Input (prompt) tokens. */
  inputTokens?: number | null;
  /** Output (completion) tokens. */
  outputTokens?: number | null;
  /** Total tokens, as the agent said it (never computed from the other two). */
  totalTokens?: number | null;
  /** The cost, when the agent gave one. */
  cost?: A2AUsageCost | null;
};

/** The metadata of an {@link A2AUIMessage}: `usage` on an assistant message whose agent reported usage. */
export type A2AMessageMetadata = {
  /** The reply's usage; absent when the agent reported none. */
  usage?: A2AUsage;
};

const COUNTS = ['inputTokens', 'outputTokens', 'totalTokens'] as const;

/** A usage's numbers, as the message shows them (no `reported`, no field the agent did not give). */
export function usageOf(usage: Usage): A2AUsage {
  const out: A2AUsage = {};
  for (const key of COUNTS) if (usage[key] !== undefined) out[key] = usage[key];
  if (usage.cost !== undefined) {
    const { amount, currency } = usage.cost;
    out.cost = currency === undefined ? { amount } : { amount, currency };
  }
  return out;
}

/** A history message's metadata: its exchange's usage, or none. */
export function usageMetadataOf(usage: Usage | undefined): { metadata?: A2AMessageMetadata } {
  return usage === undefined ? {} : { metadata: { usage: usageOf(usage) } };
}

/**
 * One streamed reply's usage metadata: what to send when the running total is `total`, given what was
 * sent before (merged by `ai` into what it holds): the new numbers, `null` for a field sent before and
 * now gone, nothing when the message already shows it.
 */
export class StreamedUsage {
  private shown: A2AUsage | undefined;

  /** The metadata that makes the message show `total`; undefined when it already does. */
  of(total: Usage): A2AMessageMetadata | undefined {
    const next = usageOf(total);
    const sent = this.shown === undefined ? next : clearing(this.shown, next);
    if (this.shown !== undefined && JSON.stringify(this.shown) === JSON.stringify(next)) return undefined;
    this.shown = next;
    return { usage: sent };
  }

  /** The metadata of the `finish` chunk: the turn's total, whole (the message holds it already, or gets it). */
  finish(total: Usage): A2AMessageMetadata {
    const next = usageOf(total);
    const sent = this.shown === undefined ? next : clearing(this.shown, next);
    this.shown = next;
    return { usage: sent };
  }
}

/** `next`, with `null` for each field `shown` has and `next` does not (a merge keeps what is not overwritten). */
function clearing(shown: A2AUsage, next: A2AUsage): A2AUsage {
  const out: A2AUsage = { ...next };
  for (const key of COUNTS) if (shown[key] != null && next[key] === undefined) out[key] = null;
  const cost = next.cost;
  if (shown.cost != null && cost == null) out.cost = null;
  if (shown.cost?.currency != null && cost != null && cost.currency == null) out.cost = { amount: cost.amount, currency: null };
  return out;
}
