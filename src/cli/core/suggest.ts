/**
 * "Did you mean …?" for a mistyped command or flag: the known word closest to what was typed, when it
 * is close enough to be a typo.
 */

/** Edits between `a` and `b`: insertions, deletions, substitutions and swaps of two neighbours. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = best;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * The candidate closest to `typed`, when it is a likely typo of it: at most two edits, and fewer
 * than half of the typed word's length (so `--x` suggests nothing). Undefined otherwise.
 */
export function closest(typed: string, candidates: Iterable<string>): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = editDistance(typed.toLowerCase(), word.toLowerCase());
    if (best === undefined || distance < best.distance) best = { word, distance };
  }
  return best !== undefined && best.distance <= 2 && best.distance * 2 < typed.length ? best.word : undefined;
}

/** `: did you mean X?` for the closest candidate, or nothing. */
export function didYouMean(typed: string, candidates: Iterable<string>, show: (word: string) => string = (word) => word): string {
  const word = closest(typed, candidates);
  return word === undefined ? '' : `: did you mean ${show(word)}?`;
}
