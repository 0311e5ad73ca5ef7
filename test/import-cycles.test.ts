/**
 * No module of the checkout reaches itself through its imports: bench/, demo/, examples/, fixtures/,
 * marbles/, scripts/ and test/ as src/ (whose walls `boundaries.test.ts` holds). Type imports count.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const FOLDERS = ['bench', 'demo', 'examples', 'fixtures', 'marbles', 'scripts', 'src', 'test'];
const SKIPPED = new Set(['node_modules', 'dist', '.angular']);

/** The modules under `dir`, as paths from the checkout's root. */
function modulesUnder(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return SKIPPED.has(entry.name) ? [] : modulesUnder(path);
    return /\.(ts|tsx|mts|mjs|js)$/.test(entry.name) && !/\.d\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

/** The module of the checkout a relative import names (`./a.js` is `a.ts` when that is what exists), if any. */
function resolved(from: string, specifier: string): string | undefined {
  const path = relative(ROOT, join(ROOT, dirname(from), specifier))
    .split('\\')
    .join('/');
  const candidates = [
    path,
    path.replace(/\.js$/, '.ts'),
    path.replace(/\.js$/, '.tsx'),
    path.replace(/\.mjs$/, '.mts'),
    `${path}.ts`,
    `${path}/index.ts`,
  ];
  return candidates.find((candidate) => /\.\w+$/.test(candidate) && existsSync(join(ROOT, candidate)));
}

/** Each module's relative imports and re-exports, static or dynamic, among `modules`. */
function importGraph(modules: readonly string[]): Map<string, string[]> {
  const known = new Set(modules);
  const graph = new Map<string, string[]>();
  for (const module of modules) {
    const source = readFileSync(join(ROOT, module), 'utf8');
    const specifiers = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)(['"])(\.[^'"]*)\1/gm)].map((m) => m[2]!);
    graph.set(
      module,
      specifiers.flatMap((specifier) => resolved(module, specifier) ?? []).filter((to) => known.has(to)),
    );
  }
  return graph;
}

/**
 * The modules on cycles: what is left after taking away, again and again, each module that imports
 * none left (it is on no cycle) and each that none left imports (it only leads to one).
 */
function onCycles(graph: ReadonlyMap<string, readonly string[]>): string[] {
  const left = new Set(graph.keys());
  for (let removed = true; removed;) {
    removed = false;
    const imported = new Set([...left].flatMap((module) => graph.get(module)!));
    for (const module of left) {
      if (graph.get(module)!.some((to) => left.has(to)) && imported.has(module)) continue;
      left.delete(module);
      removed = true;
    }
  }
  return [...left].sort();
}

describe('the import graph of the checkout', () => {
  const graph = importGraph(FOLDERS.flatMap(modulesUnder));

  it('reads the modules of every folder and their imports', () => {
    for (const folder of FOLDERS)
      expect(
        [...graph.keys()].some((module) => module.startsWith(`${folder}/`)),
        folder,
      ).toBe(true);
    expect(graph.get('bench/report-grpc.ts')).toEqual(['bench/report-format.ts', 'bench/results.ts']);
  });

  it('has no cycle', () => {
    expect(onCycles(graph)).toEqual([]);
  });

  it('the check sees a cycle, and only the modules on it', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['a.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', []],
    ]);
    expect(onCycles(graph)).toEqual(['a.ts', 'b.ts']);
  });
});
