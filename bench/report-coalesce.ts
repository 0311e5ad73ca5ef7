/** The coalescing section of docs/performance.md ("Renders a screen can afford"), from the full run or `npm run bench:coalesce`. */
import { n, s, table } from './report-format.js';
import type { CoalesceResults } from './results.js';

/** The section, or nothing for results written before the scenario existed. */
export function coalesceSection(c: CoalesceResults | undefined, heading = '**8. Renders a screen can afford**'): string[] {
  if (c === undefined) return [];
  const every = c.variants['every view'];
  const coalesced = c.variants['coalesced'];
  const name: Record<string, string> = {
    'every view': 'every view: `turnState()`',
    coalesced: `coalesced: \`turnState({ coalesceMs: ${c.windowMs} })\``,
  };
  const saved =
    every === undefined || coalesced === undefined
      ? []
      : [
          `The subscriber received ${n(coalesced['updates']!.median, 0)} views instead of ${n(every['updates']!.median, 0)} and spent ` +
            `${n(coalesced['subscriberMs']!.median, 1)} ms of CPU instead of ${n(every['subscriberMs']!.median, 0)} ms; ` +
            `the whole turn took ${n(coalesced['cpuMs']!.median, 0)} ms of CPU instead of ${n(every['cpuMs']!.median, 0)} ms.`,
          '',
        ];
  return [
    `${heading}: one reply of ${n(c.n, 0)} chunks (${c.perTick} every ${c.tickMs} ms, no wire) through \`runTurn\` and \`turnState()\` ` +
      'into a subscriber that serialises each view it receives (`JSON.stringify`, as a store that persists the view or posts it to a ' +
      'worker does: its cost grows with the reply), with and without coalescing; ' +
      `${c.measured} measured turns per process after a warm-up turn. CPU in the subscriber is measured around each call; ` +
      '"last view after" is the wall time from subscribing to the end view (a subscriber that cannot keep up delays the chunks behind it).',
    '',
    table(
      ['views', 'views delivered', 'CPU ms in the subscriber', 'CPU ms, whole turn', 'last view after ms'],
      '---|--:|--:|--:|--:',
      Object.entries(c.variants).map(([variant, m]) => [
        name[variant] ?? variant,
        s(m['updates'], 0),
        s(m['subscriberMs'], 1),
        s(m['cpuMs'], 0),
        s(m['wallMs'], 0),
      ]),
    ),
    '',
    ...saved,
  ];
}
