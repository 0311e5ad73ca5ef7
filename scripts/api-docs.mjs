/**
 * The API reference: API Extractor reads the built declarations (dist/*.d.ts) of each entry in
 * package.json's `exports`, and API Documenter writes Markdown pages from their doc comments.
 *
 *     npm run docs          # tsc, then this: docs/api/index.md and one page per item
 *
 * API Extractor brings its own TypeScript (the package is built with TypeScript 7, which has no
 * compiler API), so it works from the emitted .d.ts files; their declaration maps point every
 * message at src/. A public item without a doc comment, a broken `{@link}`, malformed TSDoc or a
 * type an entry uses without exporting it fails the run (test/api-docs.test.ts runs the same check).
 *
 * Each entry is documented as a package of its own (`a4h-a2a/node` as `a4h-a2a-node` in file
 * names). What an entry re-exports from the core (`a4h-a2a/node` re-exports all of it) is listed
 * on the core's page only, and an entry's signatures link there.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CompilerState, Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Where `npm run docs` writes the pages. */
export const API_DOCS_DIR = join(ROOT, 'docs', 'api');
const CORE = 'a4h-a2a';

/**
 * The documented entries: every subpath of package.json's `exports` with declarations, its import
 * path and its ESM .d.ts.
 * @returns {import('./api-docs.d.mts').ApiEntry[]}
 */
export function apiEntries() {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  return Object.entries(pkg.exports).flatMap(([subpath, target]) => {
    const types = typeof target === 'object' ? target.import?.types : undefined;
    if (typeof types !== 'string') return [];
    const importPath = subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
    return [{ importPath, model: importPath.replace('/', '-'), dts: join(ROOT, types) }];
  });
}

/** The API Extractor configuration of one entry: the doc model only, no rollup. */
function configOf(entry, temp, dts) {
  return ExtractorConfig.prepare({
    configObject: {
      projectFolder: ROOT,
      mainEntryPointFilePath: dts,
      compiler: {
        overrideTsconfig: {
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2022', 'DOM'],
            types: ['node'],
            strict: true,
            skipLibCheck: true,
          },
          files: [dts],
        },
      },
      // The report itself is thrown away; only with it on does API Extractor name undocumented items.
      apiReport: { enabled: true, reportFileName: `${entry.model}.api.md`, reportFolder: temp, reportTempFolder: temp },
      docModel: { enabled: true, apiJsonFilePath: join(temp, `${entry.model}.api.json`) },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: false },
          'ae-undocumented': { logLevel: 'warning', addToApiReportFile: false },
          // No item carries a release tag (@public, @beta…): everything exported is public.
          'ae-missing-release-tag': { logLevel: 'none' },
        },
        tsdocMessageReporting: { default: { logLevel: 'warning' } },
      },
    },
    configObjectFullPath: undefined,
    packageJson: { name: entry.model, version: '0.0.0' },
    packageJsonFullPath: join(ROOT, 'package.json'),
  });
}

/**
 * Runs API Extractor on each entry's built .d.ts. Returns the doc models' folder (one
 * `<model>.api.json` per entry) and every problem found. An entry's problems in the core's files
 * are the core's (found once, where they belong); a type that an entry uses without exporting it is
 * one only when the core does not export it either (the core's page documents it).
 * @param {import('./api-docs.d.mts').ExtractOptions} [options]
 * @returns {import('./api-docs.d.mts').Extracted}
 */
export function extractApi(options = {}) {
  const entries = options.entries ?? apiEntries();
  const temp = options.modelDir ?? mkdtempSync(join(tmpdir(), 'a4h-api-'));
  mkdirSync(temp, { recursive: true });
  const configs = entries.map((entry) => configOf(entry, temp, entry.dts));
  const compilerState = CompilerState.create(configs[0], { additionalEntryPoints: entries.map((entry) => entry.dts) });
  const found = [];
  entries.forEach((entry, index) => {
    Extractor.invoke(configs[index], {
      compilerState,
      localBuild: true,
      messageCallback: (message) => {
        message.handled = true;
        if (message.logLevel !== 'warning' && message.logLevel !== 'error') return;
        found.push({
          entry: entry.importPath,
          id: message.messageId,
          file: message.sourceFilePath ? relative(ROOT, message.sourceFilePath) : undefined,
          line: message.sourceFileLine,
          text: message.text,
        });
      },
    });
  });
  const core = entries.find((entry) => entry.importPath === CORE);
  const coreItems = core ? JSON.parse(readFileSync(join(temp, `${core.model}.api.json`), 'utf8')).members[0].members : [];
  const coreNames = new Set(coreItems.map((item) => item.name));
  const coreFiles = new Set(coreItems.map((item) => item.fileUrlPath));
  /** @type {Map<string, import('./api-docs.d.mts').ApiProblem>} */
  const problems = new Map();
  for (const problem of found) {
    if (core && problem.entry !== CORE) {
      if (coreFiles.has(problem.file)) continue;
      const forgotten = problem.id === 'ae-forgotten-export' ? /The symbol "([^"]+)"/.exec(problem.text)?.[1] : undefined;
      if (forgotten !== undefined && coreNames.has(forgotten)) continue;
    }
    problems.set(`${problem.file}:${problem.line}: ${problem.text}`, problem);
  }
  return { modelDir: temp, problems: [...problems.values()] };
}

/** One line per problem: `src/file.ts:12 ae-undocumented Missing documentation for "x".` */
export function formatProblem(problem) {
  const where = problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''}` : problem.entry;
  return `${where} ${problem.id} ${problem.text}`;
}

/**
 * An entry's model with what it re-exports from the core taken out (the same name declared in the
 * same file), and its references to core items (re-exported, or used without an export) pointed at
 * the core's pages.
 */
export function linkToCore(model, core) {
  const coreItems = new Map(core.members[0].members.map((item) => [item.name, item]));
  const moved = new Set();
  model.members[0].members = model.members[0].members.filter((item) => {
    const same = coreItems.get(item.name);
    if (same === undefined || same.fileUrlPath !== item.fileUrlPath) return true;
    moved.add(item.name);
    return false;
  });
  const prefix = `${model.name}!`;
  const retarget = (reference) => {
    if (typeof reference !== 'string' || !reference.startsWith(prefix)) return reference;
    const rest = reference.slice(prefix.length);
    const local = rest.startsWith('~') ? rest.slice(1) : rest;
    const name = /^[^:#.]+/.exec(local)?.[0];
    if (name === undefined || !coreItems.has(name)) return reference;
    if (!rest.startsWith('~') && !moved.has(name)) return reference;
    return `${core.name}!${local}`;
  };
  const walk = (node) => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (node !== null && typeof node === 'object') {
      for (const [key, value] of Object.entries(node)) {
        if (key === 'canonicalReference' && node.kind === 'Reference') node[key] = retarget(value);
        else walk(value);
      }
    }
  };
  walk(model.members);
  return model;
}

/**
 * Writes the Markdown reference to `outputDir` (emptied first) from the models `extractApi` made,
 * each sub-entry linked to the core, and its names shown as import paths. Resolves with the pages
 * written; throws with API Documenter's output when it warns or fails.
 * @param {import('./api-docs.d.mts').WriteOptions} options
 */
export function writeApiDocs({ modelDir, outputDir = API_DOCS_DIR, entries = apiEntries() }) {
  const read = (entry) => JSON.parse(readFileSync(join(modelDir, `${entry.model}.api.json`), 'utf8'));
  const core = entries.find((entry) => entry.importPath === CORE);
  const input = mkdtempSync(join(tmpdir(), 'a4h-api-input-'));
  try {
    for (const entry of entries) {
      const model = core && entry !== core ? linkToCore(read(entry), read(core)) : read(entry);
      writeFileSync(join(input, `${entry.model}.api.json`), JSON.stringify(model));
    }
    const bin = join(dirname(createRequire(import.meta.url).resolve('@microsoft/api-documenter/package.json')), 'bin', 'api-documenter');
    const run = spawnSync(process.execPath, [bin, 'markdown', '--input-folder', input, '--output-folder', outputDir], {
      encoding: 'utf8',
    });
    const output = `${run.stdout}${run.stderr}`;
    if (run.status !== 0 || /warning|error/i.test(output.replaceAll(/^Writing .*$/gm, ''))) {
      throw new Error(`api-documenter ${run.status === 0 ? 'warned' : 'failed'}:\n${output}`);
    }
  } finally {
    rmSync(input, { recursive: true, force: true });
  }
  const pages = readdirSync(outputDir).filter((file) => file.endsWith('.md'));
  const renames = entries.filter((entry) => entry.model !== entry.importPath);
  for (const page of pages) {
    const path = join(outputDir, page);
    let text = readFileSync(path, 'utf8');
    // Shown text only: link targets (`./a4h-a2a-node.md`) keep the file names.
    for (const entry of renames) text = text.replaceAll(new RegExp(`(?<![/\\w.-])${entry.model}(?![\\w-]|\\.md)`, 'g'), entry.importPath);
    writeFileSync(path, text);
  }
  return pages;
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const { modelDir, problems } = extractApi();
  try {
    if (problems.length > 0) {
      console.error(`a4h docs: ${problems.length} problem(s) in the doc comments:\n${problems.map(formatProblem).join('\n')}`);
      process.exitCode = 1;
    } else {
      const pages = writeApiDocs({ modelDir });
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(`a4h docs: ${pages.length} pages in ${relative(ROOT, resolve(API_DOCS_DIR))}/ (start at index.md), ${seconds} s`);
    }
  } finally {
    rmSync(modelDir, { recursive: true, force: true });
  }
}
