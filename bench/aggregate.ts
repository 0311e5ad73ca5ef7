/** Folds the children's results over rounds: per contender, a summary per figure, and ratios to a base contender. */
import type { ChildResult } from './rounds.js';
import { median, ratio, summarize, type Summary } from './stats.js';

/** A numeric figure of one child's result. */
export const num = (result: ChildResult, key: string): number => result[key] as number;

const metric = (results: readonly ChildResult[], key: string): Summary => summarize(results.map((r) => num(r, key)));

/** The median of the per-round ratios a/b (each pair ran in the same round). */
const paired = (a: readonly ChildResult[], b: readonly ChildResult[], key: string): number =>
  ratio(median(a.map((r, i) => num(r, key) / num(b[i]!, key))), 1);

/** Per contender, the summary of each of `keys` over its rounds. */
export function byContender<C extends string>(results: Record<C, ChildResult[]>, keys: readonly string[]) {
  return Object.fromEntries(
    Object.entries(results).map(([c, rs]) => [c, Object.fromEntries(keys.map((k) => [k, metric(rs as ChildResult[], k)]))]),
  ) as Record<C, Record<string, Summary>>;
}

/** Every contender but `base` against `base` (`"<c>/<base>"`): the ratio of medians and the median of the paired ratios. */
export function ratios(results: Record<string, ChildResult[]>, keys: readonly string[], base: string) {
  const out: Record<string, Record<string, { ofMedians: number; paired: number }>> = {};
  for (const [c, rs] of Object.entries(results)) {
    if (c === base) continue;
    out[`${c}/${base}`] = Object.fromEntries(
      keys.map((k) => [
        k,
        {
          ofMedians: ratio(median(rs.map((r) => num(r, k))), median(results[base]!.map((r) => num(r, k)))),
          paired: paired(rs, results[base]!, k),
        },
      ]),
    );
  }
  return out;
}
