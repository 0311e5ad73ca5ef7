/**
 * The published package, checked from the tarball `npm pack` makes (offline; `npm test` builds first):
 * publint, arethetypeswrong, the files it ships, and the `browser` condition of `./node`.
 */
import { build } from 'esbuild';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { publint } from 'publint';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ATTW = join(ROOT, 'node_modules/@arethetypeswrong/cli/dist/index.js');
const BROWSER_SENTENCE = /a4h-a2a\/node is for Node .*in a browser, import from 'a4h-a2a'/;

let dir: string;
let tarball: string;
/** The unpacked package, as `node_modules/a4h-a2a` of a consumer in `dir`. */
let unpacked: string;
let files: string[];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-pack-'));
  // --ignore-scripts: no `prepare` rebuild; the tests run after `npm run build`.
  const name = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  tarball = join(dir, name);
  unpacked = join(dir, 'node_modules', 'a4h-a2a');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['xzf', tarball, '-C', unpacked, '--strip-components=1']);
  files = listFiles(unpacked);
  // The consumer's own dependencies: this checkout's, linked (offline).
  const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  for (const dependency of [...Object.keys(pkg['dependencies'] ?? {}), ...Object.keys(pkg['peerDependencies'] ?? {})]) {
    mkdirSync(dirname(join(dir, 'node_modules', dependency)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
  }
}, 60_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function listFiles(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}

describe('the packed tarball', () => {
  it('publint finds nothing, not even a suggestion', async () => {
    const bytes = readFileSync(tarball);
    const { messages } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
      level: 'suggestion',
    });
    expect(messages).toEqual([]);
  });

  it('arethetypeswrong finds no problem for ESM consumers (node16 from ESM, bundler)', () => {
    // --profile esm-only: the package is ESM. It skips node10 (no `exports` support, so the subpaths cannot
    // resolve there) and node16 from CommonJS, where attw's TypeScript does not model require(esm),
    // which Node 20.19+ (our engines) supports.
    const run = spawnSync(process.execPath, [ATTW, tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], {
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(run.stdout).toMatch(/node16 \(from ESM\): 🟢/);
  });

  it('ships the license, declaration maps next to the declarations, and no declarations for the command', () => {
    expect(files).toContain('LICENSE');
    expect(readFileSync(join(unpacked, 'LICENSE'), 'utf8')).toMatch(/Apache License\s+Version 2\.0/);
    const declarations = files.filter((f) => f.endsWith('.d.ts'));
    expect(declarations.length).toBeGreaterThan(10);
    for (const declaration of declarations) expect(files).toContain(`${declaration}.map`);
    expect(files.filter((f) => f.startsWith('dist/cli/') && /\.d\.ts(\.map)?$/.test(f))).toEqual([]);
    expect(files).toContain('dist/cli/main.js');
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
    const result = await build({
      entryPoints: [join(dir, 'entry.js')],
      absWorkingDir: dir,
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      metafile: true,
    });
    expect(result.errors).toEqual([]);
    expect(Object.keys(result.metafile.inputs).filter((path) => /^node:|undici/.test(path))).toEqual([]);
    const code = result.outputFiles[0]!.text;
    expect(() => new Function(code)()).toThrow(BROWSER_SENTENCE);
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
