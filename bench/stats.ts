/** Small statistics over benchmark samples: medians and ranges, never means. */

/** A figure over rounds: its median, its range and the samples it came from. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  samples: number[];
}

/** The median of `values` (the mean of the middle two for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The `q` quantile (0..1) by nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank]!;
}

/** Median, min and max of `values`, rounded to `digits` significant decimals for the JSON. */
export function summarize(values: readonly number[], digits = 4): Summary {
  const round = (x: number): number => Number(x.toPrecision(digits + 2));
  return {
    median: round(median(values)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
    samples: values.map(round),
  };
}

/** `a / b` rounded to three decimals. */
export function ratio(a: number, b: number): number {
  return Math.round((a / b) * 1000) / 1000;
}
