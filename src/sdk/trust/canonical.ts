import { canonicalizeAgentCard, type AgentCard } from '@a2a-js/sdk';

/**
 * The bytes a card's signatures sign (A2A §8.4.1): the card without `signatures`, without
 * default-valued fields, in RFC 8785 (JCS) form.
 *
 * - A v1.0 card goes through the SDK's own `canonicalizeAgentCard`, exactly as its
 *   `generateAgentCardSignature` and `verifyAgentCardSignature` compute it: a round trip through the
 *   v1.0 schema (fields outside it are dropped, so they are not covered), then empty values dropped.
 * - A v0.3 card (A2A v0.3 defines no canonical form) is taken as served: `signatures` removed, empty
 *   strings, lists, objects and nulls dropped (the same rule), and JCS. So every field of it is
 *   covered, its `url` too.
 */
export function signedPayload(card: Record<string, unknown>, shape: '1.0' | '0.3'): string {
  if (shape === '1.0') return canonicalizeAgentCard(card as unknown as AgentCard);
  const { signatures: _, ...rest } = card;
  return jcs(withoutEmpty(rest) ?? {});
}

/** The value without empty strings, lists, objects and nulls, at any depth; undefined when nothing is left. */
export function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const kept = value.map(withoutEmpty).filter((item) => item !== undefined);
    return kept.length > 0 ? kept : undefined;
  }
  if (typeof value === 'object') {
    const kept: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      const cleaned = withoutEmpty(item);
      if (cleaned !== undefined) kept[key] = cleaned;
    }
    return Object.keys(kept).length > 0 ? kept : undefined;
  }
  return value;
}

/**
 * RFC 8785: members sorted by their names' UTF-16 code units (JavaScript's default sort), no
 * whitespace, strings and numbers as ECMAScript's `JSON.stringify` writes them (which RFC 8785 adopts).
 */
export function jcs(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(jcs).join(',')}]`;
  const record = value as Record<string, unknown>;
  return `{${Object.keys(record)
    .sort()
    .map((key) => `${JSON.stringify(key)}:${jcs(record[key])}`)
    .join(',')}}`;
}
