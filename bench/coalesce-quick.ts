/**
 * `npm run bench:coalesce -- [rounds]`: only the coalescing scenario of the full run (a reply of
 * 10,000 chunks through `turnState()`, every view against `coalesceMs: 50`, alternating, fresh
 * processes), printed as the table the full run writes into docs/performance.md.
 */
import { byContender } from './aggregate.js';
import { COALESCE_PLAN, COALESCE_VARIANTS } from './coalesce.js';
import { coalesceSection } from './report-coalesce.js';
import { runRounds } from './rounds.js';

const rounds = Number(process.argv[2] ?? 2);
const plan = COALESCE_PLAN;
const runs = await runRounds(
  {
    label: 'coalesce',
    contenders: COALESCE_VARIANTS,
    rounds,
    warmupRounds: 0,
    job: (variant) => ({ scenario: 'coalesce', variant, ...plan }),
  },
  { connections: 0 },
);
const variants = byContender(runs, ['updates', 'subscriberMs', 'cpuMs', 'wallMs']);
process.stdout.write(`${coalesceSection({ ...plan, variants }, '**Renders a screen can afford**').join('\n')}\n`);
