/** What the generated performance tables (docs/performance.md) are made of: contender labels, number formats, Markdown tables. */
import type { Summary } from './stats.js';

/** How each contender is named in the tables. */
export const LABELS: Record<string, string> = {
  a4h: 'a4h-a2a `turn()`',
  'a4h-sdk-reader': "a4h-a2a `turn()`, SDK's stream reader",
  sdk: 'raw SDK `sendMessageStream`',
  floor: 'floor: undici + eventsource-parser + JSON.parse',
  'a4h-grpc': 'a4h-a2a `turn()`',
  'a4h-grpc-sdk-reader': "a4h-a2a `turn()`, the SDK's delivery",
  'sdk-grpc': "the SDK's gRPC client `sendMessageStream`",
};

export const label = (contender: string): string => LABELS[contender] ?? contender;

/** Column heads for the contenders in wide tables. */
const SHORT: Record<string, string> = { a4h: 'a4h-a2a', 'a4h-sdk-reader': "a4h-a2a, SDK's reader", sdk: 'raw SDK', floor: 'floor' };

export const shortLabel = (contender: string): string => SHORT[contender] ?? contender;

/** `x` with `digits` decimals and thousands separators. */
export const n = (x: number, digits: number): string =>
  x.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** `median [min–max]`, or the one value of a single round. */
export const s = (summary: Summary | undefined, digits: number): string => {
  if (summary === undefined) return '–';
  if (summary.samples.length === 1) return n(summary.median, digits);
  return `${n(summary.median, digits)} [${n(summary.min, digits)}–${n(summary.max, digits)}]`;
};

/** A ratio, `1.23×`. */
export const x = (value: number | undefined): string => (value === undefined ? '–' : `${value.toFixed(2)}×`);

const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;

/** A Markdown table; `align` is the separator row without its outer bars (`---|--:`). */
export const table = (head: readonly string[], align: string, rows: readonly (readonly string[])[]): string =>
  [row(head), `|${align}|`, ...rows.map(row)].join('\n');
