/**
 * The API reference (`npm run docs`): API Extractor on the built declarations of every entry of
 * package.json's `exports` finds no public item without a doc comment, no broken `{@link}`, no
 * malformed TSDoc and no type an entry uses without anyone exporting it; and the pages API
 * Documenter writes from them name the entries by import path and link each entry to the core.
 *
 * Needs the built library (`npm run build`: it reads dist/*.d.ts).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiEntries, extractApi, formatProblem, writeApiDocs } from '../scripts/api-docs.mjs';
import type { ApiEntry, Extracted } from '../scripts/api-docs.mjs';
import { ROOT } from './packed.js';

const temps: string[] = [];
const temp = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
let extracted: Extracted;

beforeAll(() => {
  if (!existsSync(join(ROOT, 'dist', 'index.d.ts'))) throw new Error('dist/index.d.ts is missing: run `npm run build` first');
  extracted = extractApi({ modelDir: temp('a4h-api-model-') });
}, 120_000);

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

describe('the doc comments of the public API', () => {
  it('documents every entry of package.json exports (those with types)', () => {
    expect(apiEntries().map((entry) => entry.importPath)).toEqual([
      'a4h-a2a',
      'a4h-a2a/node',
      'a4h-a2a/testing',
      'a4h-a2a/telemetry',
      'a4h-a2a/angular',
      'a4h-a2a/ai-sdk',
    ]);
  });

  it('every public item has a doc comment, and every doc comment is well-formed', () => {
    // On failure: one line per problem, `src/file.ts:LINE ae-undocumented Missing documentation for "name".`
    expect(extracted.problems.map(formatProblem)).toEqual([]);
  });
});

describe('the check', () => {
  /** A core and a sub-entry, as built declarations, in a folder of their own under the checkout. */
  function fixture(files: Record<string, string>): ApiEntry[] {
    const dir = mkdtempSync(join(ROOT, 'test-output', 'api-docs-'));
    temps.push(dir);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return [
      { importPath: 'a4h-a2a', model: 'a4h-a2a', dts: join(dir, 'index.d.ts') },
      { importPath: 'a4h-a2a/sub', model: 'a4h-a2a-sub', dts: join(dir, 'sub', 'index.d.ts') },
    ];
  }

  beforeAll(() => mkdirSync(join(ROOT, 'test-output'), { recursive: true }));

  it('names each undocumented export and member, a broken link and a type no entry exports', () => {
    const entries = fixture({
      'index.d.ts': [
        '/** The core. @packageDocumentation */',
        '/** Documented, unlike {@link missing}. */',
        'export declare function documented(): void;',
        'export declare function undocumented(): void;',
        '/** A shape. */',
        'export interface Shape {',
        '  /** Documented. */',
        '  a: string;',
        '  b: number;',
        '}',
        'interface Hidden { x: number }',
        '/** Gives a type nobody exports. */',
        'export declare function hidden(): Hidden;',
        // As tsc emits it: without an export list, every declaration of a .d.ts module is exported.
        'export {};',
        '',
      ].join('\n'),
      'sub/index.d.ts': '/** The sub-entry. @packageDocumentation */\nexport { documented } from "../index.js";\n',
    });
    const problems = extractApi({ entries, modelDir: temp('a4h-api-fixture-') }).problems.map((problem) => problem.text);
    expect(problems).toEqual(
      expect.arrayContaining([
        'Missing documentation for "undocumented".',
        'Missing documentation for "b".',
        expect.stringContaining('"missing"'),
        expect.stringContaining('The symbol "Hidden" needs to be exported'),
      ]),
    );
    expect(problems.filter((text) => /"(documented|Shape|a)"/.test(text))).toEqual([]);
  });

  it("a sub-entry may use the core's exported types without exporting them, not a type of its own", () => {
    const entries = fixture({
      'index.d.ts':
        '/** The core. @packageDocumentation */\n/** A thing. */\nexport interface Thing {\n  /** Its name. */\n  name: string;\n}\n',
      'sub/index.d.ts': [
        '/** The sub-entry. @packageDocumentation */',
        'import type { Thing } from "../index.js";',
        'interface Own { x: number }',
        '/** Makes a core thing. */',
        'export declare function thing(): Thing;',
        '/** Makes its own. */',
        'export declare function own(): Own;',
        'export {};',
        '',
      ].join('\n'),
    });
    const problems = extractApi({ entries, modelDir: temp('a4h-api-fixture-') }).problems;
    expect(problems.map((problem) => `${problem.entry}: ${problem.text}`)).toEqual([
      'a4h-a2a/sub: The symbol "Own" needs to be exported by the entry point index.d.ts',
    ]);
  });
});

describe('the pages (npm run docs)', () => {
  let out = '';
  let pages: string[] = [];
  const page = (name: string): string => readFileSync(join(out, name), 'utf8');

  beforeAll(() => {
    out = temp('a4h-api-pages-');
    pages = writeApiDocs({ modelDir: extracted.modelDir, outputDir: out });
  }, 60_000);

  it('an index of the six entries, by import path, each with its summary', () => {
    const index = page('index.md');
    for (const [name, file] of [
      ['a4h-a2a', 'a4h-a2a'],
      ['a4h-a2a/node', 'a4h-a2a-node'],
      ['a4h-a2a/testing', 'a4h-a2a-testing'],
      ['a4h-a2a/telemetry', 'a4h-a2a-telemetry'],
      ['a4h-a2a/angular', 'a4h-a2a-angular'],
      ['a4h-a2a/ai-sdk', 'a4h-a2a-ai-sdk'],
    ]) {
      expect(index).toContain(`[${name}](./${file}.md)`);
    }
    expect(index).toContain('the browser-safe core');
    expect(pages.length).toBeGreaterThan(100);
  });

  it("a sub-entry lists what it adds; what it re-exports is the core's page, and its signatures link there", () => {
    const node = page('a4h-a2a-node.md');
    expect(node).toContain('## a4h-a2a/node package');
    expect(node).toContain('[createA2A(options)](./a4h-a2a-node.createa2a.md)');
    expect(node).toContain('./a4h-a2a-node.createnodefetch.md');
    expect(node).not.toContain('turnState');
    expect(pages.filter((name) => name.startsWith('a4h-a2a-node.turnstate'))).toEqual([]);
    expect(page('a4h-a2a-node.createa2a.md')).toContain('[A2AClient](./a4h-a2a.a2aclient.md)');
    expect(page('a4h-a2a-testing.fakeport.md')).toContain('**Extends:** [A2APort](./a4h-a2a.a2aport.md)');
    expect(page('a4h-a2a-angular.md')).not.toContain('./a4h-a2a-angular.turnview.md');
    expect(page('a4h-a2a.md')).toContain('[turnState()](./a4h-a2a.turnstate.md)');
  });

  it('every link between pages leads to a page', () => {
    const broken = readdirSync(out).flatMap((name) =>
      [...readFileSync(join(out, name), 'utf8').matchAll(/\]\(\.\/([^)#]+)/g)]
        .map((link) => link[1]!)
        .filter((target) => !existsSync(join(out, target)))
        .map((target) => `${name} → ${target}`),
    );
    expect(broken).toEqual([]);
  });
});
