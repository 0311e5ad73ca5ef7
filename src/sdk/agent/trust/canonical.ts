import { canonicalizeAgentCard, type AgentCard } from '@a2a-js/sdk';
import { isObject } from '../../../validation.js';

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
  return jcs(withoutEmpty(withoutSignatures(card)) ?? {});
}

/**
 * The card as its signatures cover it, the form a verified card is read from: the JSON that
 * {@link signedPayload} serialises. For v1.0 that is the v1.0 schema's fields only (fields outside
 * it, such as v0.3's `security`, `url` or an OpenAPI-style scheme, are left out; a snake_case alias
 * becomes its camelCase name), for v0.3 the card as served; both without `signatures` and without
 * empty values. A skill keeps its `id` and `name` (empty when the form dropped them as empty values).
 */
export function signedForm(card: Record<string, unknown>, shape: '1.0' | '0.3'): Record<string, unknown> {
  const form = JSON.parse(signedPayload(card, shape)) as Record<string, unknown>;
  const skills = form['skills'];
  if (Array.isArray(skills)) form['skills'] = skills.map((skill: unknown) => (isObject(skill) ? { id: '', name: '', ...skill } : skill));
  return form;
}

/** The most fields {@link unsignedFields} names. */
export const MAX_UNSIGNED_FIELDS = 20;

/**
 * The fields the card as served has beyond its signed form, or has otherwise, by path
 * (`securitySchemes.leak`, `supportedInterfaces.0.x-more`; a list whose length differs by its own
 * path): the first {@link MAX_UNSIGNED_FIELDS}, names only. An empty value (`''`, `null`, `[]`,
 * `{}`) is not named, but one holding only empty values is: `security: [{ "key": [] }]` means
 * something to a reader, and the signed form drops it.
 */
export function unsignedFields(card: Record<string, unknown>, form: Record<string, unknown>): string[] {
  const found: string[] = [];
  compare(withoutSignatures(card), form, '', found);
  return found;
}

function compare(served: unknown, signed: unknown, path: string, found: string[]): void {
  if (found.length >= MAX_UNSIGNED_FIELDS) return;
  const at = (key: string | number): string => (path === '' ? String(key).slice(0, 100) : `${path}.${String(key).slice(0, 100)}`);
  if (isObject(served) && isObject(signed)) {
    for (const [key, value] of Object.entries(served)) {
      if (Object.hasOwn(signed, key)) compare(value, signed[key], at(key), found);
      else if (!isEmpty(value) && found.length < MAX_UNSIGNED_FIELDS) found.push(at(key));
    }
    return;
  }
  if (Array.isArray(served) && Array.isArray(signed) && served.length === signed.length) {
    served.forEach((item: unknown, n) => compare(item, signed[n], at(n), found));
    return;
  }
  if (jcs(served) !== jcs(signed)) found.push(path);
}

const isEmpty = (value: unknown): boolean =>
  value === '' ||
  value === null ||
  value === undefined ||
  (Array.isArray(value) && value.length === 0) ||
  (isObject(value) && Object.keys(value).length === 0);

function withoutSignatures(card: Record<string, unknown>): Record<string, unknown> {
  const { signatures: _, ...rest } = card;
  return rest;
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
