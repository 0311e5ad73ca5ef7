/**
 * The published package, checked from the tarball `npm pack` makes (offline; `npm test` builds first):
 * publint, arethetypeswrong, the files it ships, and the `browser` condition of `./node`.
 */
import { buildForBrowser } from './browser-build.js';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packConsumer, ROOT, type Packed } from './packed.js';

const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
const BROWSER_SENTENCE = /a4h-a2a\/node is for Node .*in a browser, import from 'a4h-a2a'/;

let packed: Packed;
let dir: string;
let tarball: string;
/** The unpacked package, as `node_modules/a4h-a2a` of a consumer in `dir`. */
let unpacked: string;
let files: string[];

beforeAll(() => {
  packed = packConsumer();
  ({ dir, tarball, unpacked, files } = packed);
}, 60_000);
afterAll(() => packed.remove());

describe('the packed tarball', () => {
  it('publint finds nothing, not even a suggestion', async () => {
    const bytes = readFileSync(tarball);
    const { messages } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
      level: 'suggestion',
    });
    expect(messages).toEqual([]);
  });

  it('arethetypeswrong finds no problem in any resolution (node10, node16 from CommonJS and from ESM, bundler)', () => {
    // The full profile: `require` gets the CommonJS build with its own declarations, `import` the ESM one;
    // node10 (no `exports`) reaches the subpaths' declarations through `typesVersions`.
    // a4h-a2a/angular is ESM only (Angular itself is), so it has no `require` condition: it is checked
    // on its own below, with attw's esm-only profile.
    const run = spawnSync(process.execPath, [ATTW, tarball, '--format', 'ascii', '--no-color', '--exclude-entrypoints', 'angular'], {
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/No problems found/);
    expect(run.stdout).toMatch(/node16 \(from CJS\): 🟢 \(CJS\)/);
    expect(run.stdout).toMatch(/node16 \(from ESM\): 🟢 \(ESM\)/);
  });

  it('arethetypeswrong: a4h-a2a/angular resolves for ESM and bundlers (esm-only profile: no require, as Angular)', () => {
    const run = spawnSync(
      process.execPath,
      [ATTW, tarball, '--format', 'ascii', '--no-color', '--profile', 'esm-only', '--entrypoints', 'angular'],
      { encoding: 'utf8' },
    );
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/node16 \(from ESM\): 🟢 \(ESM\)/);
    expect(run.stdout).toMatch(/bundler: 🟢/);
  });

  it("has no script npm lists as an install script of a package from a tarball (so no warning to review); the checkout's npm ci and npm pack build", () => {
    const scripts = (JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    for (const install of ['preinstall', 'install', 'postinstall', 'prepare']) expect(scripts, install).not.toHaveProperty(install);
    // npm ci and npm install run the root's postprepare (never a dependency's); npm pack runs prepack.
    expect(scripts).toMatchObject({ postprepare: 'npm run build', prepack: 'npm run build' });
  });

  it('ships the docs the README links to: every relative link of the packed README and docs/ reaches a packed file', () => {
    const pages = files.filter((f) => f === 'README.md' || /^docs\/[^/]+\.md$/.test(f));
    expect(pages).toEqual(expect.arrayContaining(['README.md', 'docs/client.md', 'docs/cli.md']));
    const broken: string[] = [];
    for (const page of pages) {
      const text = readFileSync(join(unpacked, page), 'utf8')
        .replace(/```[\s\S]*?```/g, '')
        .replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/.test(target!) || target!.startsWith('#')) continue;
        const path = join(dirname(page), target!.split('#')[0]!).replace(/\/$/, '');
        if (!files.some((f) => f === path || f.startsWith(`${path}/`))) broken.push(`${page}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
    expect(files.filter((f) => f.startsWith('docs/api/'))).toEqual([]);
  });

  it('a tarball npm pack leaves in the checkout is ignored by git', () => {
    const run = spawnSync('git', ['check-ignore', '-q', 'a4h-a2a-0.1.0.tgz'], { cwd: ROOT });
    expect(run.status).toBe(0);
  });

  it('ships the license, declaration maps next to the declarations, and no declarations for the command', () => {
    expect(files).toContain('LICENSE');
    expect(readFileSync(join(unpacked, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
    const declarations = files.filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    for (const declaration of declarations) expect(files).toContain(`${declaration}.map`);
    expect(files.filter((f) => f.startsWith('dist/cli/') && /\.d\.ts(\.map)?$/.test(f))).toEqual([]);
    expect(files).toContain('dist/cli/main.js');
    // The CommonJS build: the library's modules with their declarations, marked CommonJS; not the command.
    expect(files).toContain('dist/cjs/package.json');
    for (const entry of ['index', 'node/index', 'node/browser', 'testing/index', 'ai-sdk/index']) {
      expect(files).toEqual(expect.arrayContaining([`dist/cjs/${entry}.js`, `dist/cjs/${entry}.d.ts`, `dist/cjs/${entry}.d.ts.map`]));
    }
    expect(files.filter((f) => f.startsWith('dist/cjs/cli/'))).toEqual([]);
    // The Angular entry is ESM only: in dist/angular, not in the CommonJS build.
    expect(files).toEqual(expect.arrayContaining(['dist/angular/index.js', 'dist/angular/index.d.ts']));
    expect(files.filter((f) => f.startsWith('dist/cjs/angular/'))).toEqual([]);
    // The SDK and jose, bundled for it, with their licenses.
    expect(files).toEqual(
      expect.arrayContaining(['dist/cjs/vendor/a2a-sdk.js', 'dist/cjs/vendor/a2a-js-sdk.LICENSE', 'dist/cjs/vendor/jose.LICENSE.md']),
    );
    for (const file of files.filter((f) => f.startsWith('dist/cjs/') && f.endsWith('.js'))) {
      expect(readFileSync(join(unpacked, file), 'utf8'), file).not.toMatch(/require\("(@a2a-js\/sdk|jose)/);
    }
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as { license: string; keywords: string[] };
    expect(pkg.license).toBe('Apache-2.0');
    expect(pkg.keywords).toContain('a2a');
  });
});

describe('a4h-a2a/node under the browser condition', () => {
  it('Node with --conditions=browser: one clear sentence', () => {
    const run = spawnSync(process.execPath, ['--conditions=browser', '--input-type=module', '-e', "await import('a4h-a2a/node')"], {
      cwd: dir,
      encoding: 'utf8',
    });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(BROWSER_SENTENCE);
    expect(run.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find/);
  });

  it('a browser bundle resolves it to the stub (no unresolved node: imports), which throws the sentence', async () => {
    writeFileSync(
      join(dir, 'entry.js'),
      "import { createA2A, createNodeFetch } from 'a4h-a2a/node';\nglobalThis.use = [createA2A, createNodeFetch];\n",
    );
    const result = await buildForBrowser({
      entryPoints: [join(dir, 'entry.js')],
      absWorkingDir: dir,
    });
    expect(result.errors).toEqual([]);
    expect(Object.keys(result.metafile.inputs).filter((path) => /^node:|undici/.test(path))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(() => new Function(code)()).toThrow(BROWSER_SENTENCE);
  });

  it('require() with --conditions=browser: the CommonJS stub, the same sentence', () => {
    const run = spawnSync(process.execPath, ['--conditions=browser', '-e', "require('a4h-a2a/node')"], { cwd: dir, encoding: 'utf8' });
    expect(run.status).not.toBe(0);
    expect(run.stderr).toMatch(BROWSER_SENTENCE);
  });

  it('without the condition, Node gets the Node entry', () => {
    const run = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', "const m = await import('a4h-a2a/node'); console.log(typeof m.createNodeFetch)"],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(run.stdout.trim()).toBe('function');
  });
});
