import type { Usage } from '../../node/index.js';
import type { TextRecord } from './output.js';

/**
 * A turn's usage in one terse line, what the agent gave and nothing else: `1742 in, 105 out, 1847 total
 * tokens; cost 0.0015 USD` (a field the agent did not give is left out; the cost's currency when it named
 * one). The numbers are the client's checked ones (whole counts, finite amounts, a currency of three
 * capitals), so nothing of the agent's text reaches the terminal.
 */
export function usageText(usage: Usage): string {
  const counts: string[] = [];
  if (usage.inputTokens !== undefined) counts.push(`${usage.inputTokens} in`);
  if (usage.outputTokens !== undefined) counts.push(`${usage.outputTokens} out`);
  if (usage.totalTokens !== undefined) counts.push(`${usage.totalTokens} total`);
  const said = counts.length === 0 ? [] : [`${counts.join(', ')} tokens`];
  if (usage.cost !== undefined) said.push(`cost ${usage.cost.amount}${usage.cost.currency === undefined ? '' : ` ${usage.cost.currency}`}`);
  return said.join('; ');
}

/** `record` with a last `Usage:` field when the turn reported usage; as it is otherwise. */
export function withUsage(record: TextRecord, usage: Usage | undefined): TextRecord {
  return usage === undefined ? record : { ...record, fields: [...record.fields, ['Usage', usageText(usage)]] };
}
