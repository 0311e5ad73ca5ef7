import type { Usage, UsageCost, UsageJson } from '../port/usage.js';

/**
 * One report of usage read from one `metadata` object, and its convention: `usage` (`metadata.usage`:
 * redpanda's ai-sdk-go, inference-gateway's ADK, Mastra, OpenAI's and the AI SDK's names inside) or
 * `adk` (Google ADK's `adk_usage_metadata`, kagent's `kagent_usage_metadata`: Gemini's names, one model
 * call each).
 */
export interface UsageRead {
  /** The metadata key it was under. */
  convention: 'usage' | 'adk';
  /** The report. */
  usage: Usage;
}

/** The keys read, in order: the first that holds a report wins. */
const KEYS: ReadonlyArray<readonly [string, UsageRead['convention']]> = [
  ['usage', 'usage'],
  ['adk_usage_metadata', 'adk'],
  ['kagent_usage_metadata', 'adk'],
];

/** Each field's names in the conventions, in the order tried: the AI SDK's, OpenAI's (both APIs), Gemini's (ADK). */
const INPUT = ['inputTokens', 'input_tokens', 'promptTokens', 'prompt_tokens', 'promptTokenCount'];
const OUTPUT = ['outputTokens', 'output_tokens', 'completionTokens', 'completion_tokens', 'candidatesTokenCount'];
const TOTAL = ['totalTokens', 'total_tokens', 'totalTokenCount'];
/** Costs said in US dollars by their name (Claude's `total_cost_usd` among them). */
const COST_USD = ['cost_usd', 'costUsd', 'total_cost_usd'];

/** The most tokens one report may say: past it the field is garbage (a sum of many reports stays a safe integer). */
export const MAX_TOKENS = 1e12;
/** The largest cost one report may say. */
const MAX_COST = 1e9;
/** The bounds of `reported`: its depth, members per object or array, characters per string, values in all. */
const MAX_DEPTH = 4;
const MAX_MEMBERS = 32;
const MAX_STRING = 256;
const MAX_VALUES = 200;

type Plain = Record<string, unknown>;
const isPlain = (value: unknown): value is Plain => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The report in `metadata`, when one of the keys holds an object with at least one valid field; else
 * undefined. Never throws: a field that is not a whole number of tokens (negative, fractional, NaN, a
 * string, past {@link MAX_TOKENS}) is absent, and so is a cost that is not a finite amount.
 */
export function readUsage(metadata: Plain | undefined): UsageRead | undefined {
  if (metadata === undefined) return undefined;
  for (const [key, convention] of KEYS) {
    const raw = own(metadata, key);
    if (!isPlain(raw)) continue;
    const usage = usageOf(raw);
    if (usage !== undefined) return { convention, usage };
  }
  return undefined;
}

function usageOf(raw: Plain): Usage | undefined {
  const usage: Usage = {};
  const input = tokens(raw, INPUT);
  const output = tokens(raw, OUTPUT);
  const total = tokens(raw, TOTAL);
  const cost = costOf(raw);
  if (input !== undefined) usage.inputTokens = input;
  if (output !== undefined) usage.outputTokens = output;
  if (total !== undefined) usage.totalTokens = total;
  if (cost !== undefined) usage.cost = cost;
  if (Object.keys(usage).length === 0) return undefined;
  usage.reported = boundedJson(raw, { left: MAX_VALUES }, 0) as { [key: string]: UsageJson };
  return usage;
}

/** The first valid count among `names`; the AI SDK's provider shape `{ total }` read as its total. */
function tokens(raw: Plain, names: readonly string[]): number | undefined {
  for (const name of names) {
    let value = own(raw, name);
    if (isPlain(value)) value = own(value, 'total');
    if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 && value <= MAX_TOKENS) return value;
  }
  return undefined;
}

/** `cost` as a number (its currency a sibling `currency`, when named) or as `{ amount, currency }`; else a USD name. */
function costOf(raw: Plain): UsageCost | undefined {
  const cost = own(raw, 'cost');
  if (isPlain(cost)) {
    const found = amountOf(own(cost, 'amount'), own(cost, 'currency'));
    if (found !== undefined) return found;
  } else {
    const found = amountOf(cost, own(raw, 'currency'));
    if (found !== undefined) return found;
  }
  for (const name of COST_USD) {
    const found = amountOf(own(raw, name), 'USD');
    if (found !== undefined) return found;
  }
  return undefined;
}

function amountOf(amount: unknown, currency: unknown): UsageCost | undefined {
  if (typeof amount !== 'number' || !Number.isFinite(amount) || amount < 0 || amount > MAX_COST) return undefined;
  return typeof currency === 'string' && /^[A-Z]{3}$/.test(currency) ? { amount, currency } : { amount };
}

/** An own property only: a key named `__proto__` or `constructor` reads nothing inherited. */
function own(object: Plain, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;
}

/**
 * A copy of `value` of JSON values only, bounded: past {@link MAX_DEPTH} or the values left, a member
 * is dropped; strings are cut to {@link MAX_STRING} characters, objects and arrays to {@link MAX_MEMBERS}
 * members; non-finite numbers, functions and `undefined` are dropped. Keys are own data properties
 * (`__proto__` kept as a plain key, never a prototype).
 */
export function boundedJson(value: unknown, budget: { left: number }, depth: number): UsageJson | undefined {
  if (budget.left <= 0) return undefined;
  budget.left--;
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') return value.length > MAX_STRING ? value.slice(0, MAX_STRING) : value;
  if (typeof value !== 'object' || depth >= MAX_DEPTH) return undefined;
  if (Array.isArray(value)) {
    const out: UsageJson[] = [];
    for (const item of value.slice(0, MAX_MEMBERS)) {
      const kept = boundedJson(item, budget, depth + 1);
      if (kept !== undefined) out.push(kept);
    }
    return out;
  }
  const entries: Array<[string, UsageJson]> = [];
  for (const key of Object.keys(value).slice(0, MAX_MEMBERS)) {
    const kept = boundedJson((value as Plain)[key], budget, depth + 1);
    if (kept !== undefined) entries.push([key.length > MAX_STRING ? key.slice(0, MAX_STRING) : key, kept]);
  }
  // Object.fromEntries defines each key as an own property: `__proto__` stays data.
  return Object.fromEntries(entries) as { [key: string]: UsageJson };
}
