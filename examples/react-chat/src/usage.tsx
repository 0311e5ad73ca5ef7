/**
 * A reply's usage, under it: the tokens in, out and in total and the cost with its currency, as the agent
 * reported them (`message.metadata.usage`, which the transport sets as the turn's total grows). Nothing
 * when the agent reported none; a figure it did not give (or no longer gives: `null`) is left out.
 */
import type { A2AUIMessage } from 'a4h-a2a/ai-sdk';

const COUNTS = [
  ['inputTokens', 'in'],
  ['outputTokens', 'out'],
  ['totalTokens', 'total'],
] as const;

export function Usage({ message }: { message: A2AUIMessage }) {
  const usage = message.metadata?.usage;
  if (usage === undefined) return null;
  const counts = COUNTS.flatMap(([key, label]) => {
    const value = usage[key];
    return value == null ? [] : [{ label, value }];
  });
  const cost = usage.cost;
  if (counts.length === 0 && cost == null) return null;
  return (
    <span className="usage" title="as the agent reported it">
      {counts.length > 0 && (
        <span className="tokens">
          tokens
          {counts.map(({ label, value }) => (
            <span key={label} data-figure={label}>
              {' '}
              <b>{value}</b> {label}
            </span>
          ))}
        </span>
      )}
      {cost != null && (
        <span data-figure="cost">
          cost <b>{cost.amount}</b>
          {cost.currency == null ? '' : ` ${cost.currency}`}
        </span>
      )}
    </span>
  );
}
