/**
 * docs/a2a-cli-compliance.md stays true: every requirement of the A2A CLI specification's registry
 * (v0.2, 2026-08-17) has its row, in its tier, with a status of the legend; a Pass names tests that
 * exist (a file under test/ and a title in it); every other status says why; the tallies add up; a
 * tier is claimed only when each of its rows (and each lower tier's) is Pass or N/A, and so is
 * DEFAULT_001 only with a breakdown of yes/yes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REPORT = readFileSync(new URL('docs/a2a-cli-compliance.md', `file://${ROOT}`), 'utf8');

/** The registry: the requirement ids of each tier, as COMPLIANCE.md lists them. */
const REGISTRY: Record<1 | 2 | 3, string[]> = {
  1: [
    ...['CARD_GET_001', 'SEND_001', 'SEND_002', 'SEND_003', 'SEND_004', 'SEND_005', 'SEND_006', 'TASK_GET_001', 'TASK_CANCEL_001'],
    ...['INTERACT_001', 'INTERACT_002', 'INTERACT_003', 'INTERACT_004', 'INTERACT_005'],
    ...['TASK_POLL_001', 'TASK_POLL_002', 'TASK_POLL_003', 'TASK_POLL_004'],
    ...['OUT_001', 'OUT_002', 'OUT_003', 'OUT_004', 'OUT_005', 'OUT_006', 'EXIT_001', 'EXIT_002'],
    ...['AUTH_001', 'AUTH_002', 'AUTH_003', 'AUTH_004', 'TX_001', 'TX_002', 'TX_003', 'VER_001'],
    ...['DEFAULT_001', 'CONFIG_001', 'CLI_001', 'SKILL_001', 'SKILL_002'],
  ],
  2: [
    ...['CARD_GET_002', 'TASK_LIST_001', 'TASK_SUBSCRIBE_001', 'TASK_SUBSCRIBE_002', 'AUTH_005', 'AUTH_006', 'AUTH_007'],
    ...['TX_004', 'VER_003', 'CONFIG_002', 'DOWNLOAD_001', 'OUT_007', 'CONFORM_001', 'CLI_002', 'PUSH_001'],
  ],
  3: [
    ...['CARD_GET_003', 'AUTH_008', 'CARD_GET_004', 'CARD_GET_005', 'PUSH_002', 'CHAT_001', 'TX_005', 'AUTH_009'],
    ...['AUTH_010', 'AUTH_011', 'DEMO_SERVER_001', 'VER_002'],
  ],
};
const MARKS = ['✅ Pass', '◐ Partial', '❌ Fail', '⊘ Not measured', '— N/A'] as const;
const TIER_HEADINGS: Record<1 | 2 | 3, RegExp> = { 1: /^## 4\. Tier 1/m, 2: /^## 5\. Tier 2/m, 3: /^## 6\. Tier 3/m };

interface Row {
  id: string;
  status: string;
  notes: string;
}

/** The cells of a Markdown table row (`\|` is a pipe inside a cell). */
const cells = (line: string) =>
  line
    .replace(/\\\|/g, '\u0000')
    .split('|')
    .slice(1, -1)
    .map((cell) => cell.replace(/\u0000/g, '|').trim());

/** The requirement rows of the section that starts at `heading` (up to the next `## `). */
function rowsOf(heading: RegExp): Row[] {
  const start = heading.exec(REPORT)!.index;
  const end = REPORT.indexOf('\n## ', start + 1);
  const section = REPORT.slice(start, end < 0 ? undefined : end);
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `A2ACLI_'))
    .map((line) => {
      const [id, , , status, notes] = cells(line);
      return { id: id!.replace(/`/g, '').replace(/^A2ACLI_/, ''), status: status!, notes: notes! };
    });
}

const TIERS = [1, 2, 3] as const;
const rows = Object.fromEntries(TIERS.map((tier) => [tier, rowsOf(TIER_HEADINGS[tier])])) as Record<1 | 2 | 3, Row[]>;
const allRows = TIERS.flatMap((tier) => rows[tier]);

/** Each `test/….test.ts` › "title" a note names. */
const evidenceOf = (notes: string) =>
  [...notes.matchAll(/`(test\/[\w/.-]+\.test\.ts)` › "([^"]+)"/g)].map(([, file, title]) => ({ file: file!, title: title! }));

describe('docs/a2a-cli-compliance.md', () => {
  it.each(TIERS)('tier %i: exactly the registry’s requirements, in its order', (tier) => {
    expect(rows[tier].map((row) => row.id)).toEqual(REGISTRY[tier]);
  });

  it('all 66 rows, each with a status of the legend; every status but Pass says why', () => {
    expect(allRows).toHaveLength(66);
    for (const row of allRows) {
      expect(MARKS, row.id).toContain(row.status);
      if (row.status !== '✅ Pass') expect(row.notes.length, row.id).toBeGreaterThan(10);
    }
  });

  it('each Pass names at least one test, and each named test exists: its file, and its title in the file', () => {
    for (const row of allRows) {
      const evidence = evidenceOf(row.notes);
      if (row.status === '✅ Pass') expect(evidence.length, `${row.id} names no test`).toBeGreaterThan(0);
      for (const { file, title } of evidence) {
        const path = `${ROOT}${file}`;
        expect(existsSync(path), `${row.id}: ${file} does not exist`).toBe(true);
        expect(readFileSync(path, 'utf8'), `${row.id}: no test titled "${title}" in ${file}`).toContain(title);
      }
    }
  });

  it('the tallies of §3 are the rows’ counts, each line adds up, and "satisfied" is yes only with all Pass or N/A', () => {
    TIERS.forEach((tier) => {
      const line = REPORT.split('\n').find((l) => l.startsWith(`| Tier ${tier} — `))!;
      const [, total, ...rest] = cells(line);
      const counts = rest.slice(0, 5).map(Number);
      const satisfied = rest[5];
      expect(Number(total), `tier ${tier}`).toBe(REGISTRY[tier].length);
      expect(counts, `tier ${tier}`).toEqual(MARKS.map((mark) => rows[tier].filter((row) => row.status === mark).length));
      expect(counts.reduce((a, b) => a + b, 0)).toBe(Number(total));
      expect(satisfied, `tier ${tier}`).toBe(counts[0]! + counts[4]! === Number(total) ? 'yes' : 'no');
    });
  });

  it('the tier claimed holds: every row of it and of the tiers below is Pass or N/A', () => {
    const claimed = /^\| \*\*Tier claimed\*\* \| (none|Tier [123]) \|$/m.exec(REPORT)?.[1];
    expect(claimed).toBeDefined();
    const top = claimed === 'none' ? 0 : Number(claimed!.slice(-1));
    for (const tier of TIERS.filter((t) => t <= top)) {
      for (const row of rows[tier]) expect(['✅ Pass', '— N/A'], `${row.id} in claimed tier ${tier}`).toContain(row.status);
    }
    // The claim is the highest tier satisfied, not less.
    const satisfied = (tier: 1 | 2 | 3) =>
      TIERS.filter((t) => t <= tier).every((t) => rows[t].every((row) => ['✅ Pass', '— N/A'].includes(row.status)));
    const highest = [...TIERS].reverse().find(satisfied) ?? 0;
    expect(top).toBe(highest);
  });

  it('DEFAULT_001 is Pass only when every default of §4a is shipped and overridable', () => {
    const start = REPORT.indexOf('### 4a.');
    const breakdown = REPORT.slice(start, REPORT.indexOf('\n## ', start))
      .split('\n')
      .filter((line) => /^\| [A-Z]/.test(line) && !line.startsWith('| Default'))
      .map(cells);
    expect(breakdown).toHaveLength(6);
    const complete = breakdown.every(([, shipped, overridable]) => shipped === 'yes' && overridable === 'yes');
    const status = allRows.find((row) => row.id === 'DEFAULT_001')!.status;
    if (status === '✅ Pass') expect(complete).toBe(true);
  });
});
