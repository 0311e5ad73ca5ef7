/**
 * docs/layout.md stays the floor plan of the code: one row per folder of `src/` (every folder, however
 * deep), no row for a folder that is not there, each row's entry file in its folder, and every file of
 * a `src/` folder named in its folder's row, its entry file counting (no file named that is not there).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, posix } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** One row of a table of docs/layout.md: its folder (`src/turn/`), what lives there, its entry file (`—` for none). */
interface LayoutRow {
  folder: string;
  what: string;
  entry: string;
}

/** The rows of every table of `text` whose first cell is a folder in code (`src/turn/`). */
function layoutRows(text: string): LayoutRow[] {
  return [...text.matchAll(/^\| `([^`|]+\/)` \| (.*) \| (`[^`|]+`|—) \|$/gm)].map(([, folder, what, entry]) => ({
    folder: folder!,
    what: what!,
    entry: entry!.replace(/`/g, ''),
  }));
}

/** Every folder under `dir` (itself included), as `dir/a/b/`, walked from the repository's root. */
function foldersUnder(dir: string): string[] {
  const found = [`${dir}/`];
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    if (entry.isDirectory()) found.push(...foldersUnder(`${dir}/${entry.name}`));
  }
  return found;
}

/** The files of one folder (not of its subfolders). */
const filesOf = (folder: string): string[] =>
  readdirSync(join(ROOT, folder), { withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => entry.name);

/** The file names a row's text gives in code: `turn.ts`, `grpc/node.ts`, `port/card.ts`. */
const namedFiles = (what: string): string[] => [...what.matchAll(/`([\w./-]+\.(?:ts|mts|mjs))`/g)].map((m) => m[1]!);

const rows = layoutRows(readFileSync(join(ROOT, 'docs', 'layout.md'), 'utf8'));
const srcRows = rows.filter((row) => row.folder.startsWith('src/'));

describe('docs/layout.md', () => {
  it('has a row for every folder of src/, and one only', () => {
    const folders = foldersUnder('src');
    expect(folders.length).toBeGreaterThan(40);
    const missing = folders.filter((folder) => !srcRows.some((row) => row.folder === folder));
    expect(missing, 'folders of src/ with no row in docs/layout.md').toEqual([]);
    const twice = rows.map((row) => row.folder).filter((folder, i, all) => all.indexOf(folder) !== i);
    expect(twice, 'folders with more than one row').toEqual([]);
  });

  it('names no folder that is not there (a built one aside: dist/)', () => {
    const gone = rows
      .filter((row) => !row.folder.startsWith('dist/'))
      .filter((row) => !existsSync(join(ROOT, row.folder)) || !statSync(join(ROOT, row.folder)).isDirectory())
      .map((row) => row.folder);
    expect(gone, 'rows of docs/layout.md naming no folder').toEqual([]);
    expect(rows.map((row) => row.folder)).toEqual(
      expect.arrayContaining(['test/', 'marbles/', 'fixtures/', 'bench/', 'examples/', 'demo/']),
    );
  });

  it("gives each folder's entry file, in that folder", () => {
    const wrong = rows
      .filter((row) => row.entry !== '—' && !row.folder.startsWith('dist/'))
      .filter((row) => !existsSync(join(ROOT, row.folder, row.entry)))
      .map((row) => `${row.folder}: ${row.entry}`);
    expect(wrong).toEqual([]);
  });

  it("names every file of a src/ folder in that folder's row, and no file that is not there", () => {
    const unnamed: string[] = [];
    const gone: string[] = [];
    for (const row of srcRows) {
      if (!existsSync(join(ROOT, row.folder))) continue;
      const named = namedFiles(row.what);
      for (const file of filesOf(row.folder)) if (![...named, row.entry].includes(file)) unnamed.push(`${row.folder}${file}`);
      // A name is the folder's file, a subfolder's (`grpc/node.ts`), one under src/ (`port/card.ts`) or the checkout's.
      for (const name of named) {
        const places = [posix.join(row.folder, name), posix.join('src', name), name];
        if (!places.some((place) => existsSync(join(ROOT, place)))) gone.push(`${row.folder}: ${name}`);
      }
    }
    expect(unnamed, "files of src/ their folder's row does not name").toEqual([]);
    expect(gone, 'files named in docs/layout.md that are not there').toEqual([]);
  });

  it('the checks see a folder with no row, a row with no folder, and a file not named', () => {
    const table = [
      '| folder | what lives there | entry file |',
      '|---|---|---|',
      '| `src/port/` | `port.ts` (A2APort) | `port.ts` |',
      '| `src/gone/` | nothing | — |',
    ].join('\n');
    const parsed = layoutRows(table);
    expect(parsed).toEqual([
      { folder: 'src/port/', what: '`port.ts` (A2APort)', entry: 'port.ts' },
      { folder: 'src/gone/', what: 'nothing', entry: '—' },
    ]);
    expect(foldersUnder('src').filter((folder) => !parsed.some((row) => row.folder === folder))).toContain('src/turn/');
    expect(existsSync(join(ROOT, 'src/gone/'))).toBe(false);
    expect(filesOf('src/port').filter((file) => !namedFiles(parsed[0]!.what).includes(file))).toContain('forwarding.ts');
  });
});
