/**
 * Installs and builds the Angular chat, a project of its own (see package.json's description):
 *
 *     node examples/angular/setup.mjs install   # npm ci when its lock changed; the library copied in anew
 *     node examples/angular/setup.mjs build     # the same, then ng build → examples/angular/dist/browser
 *
 * `install` needs the library built (`npm run build`; `npm ci` at the root does it): the app gets
 * the package as `npm pack` makes it, as an app installing a4h-a2a would, refreshed on every run so
 * it is never older than the checkout. `npm test` runs `install` (the only step that reaches the npm
 * registry, and only when the lock changed); its browser test runs `ng build`.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startedAs } from '../started-as.mjs';
import { exampleArgs, usageError } from '../args.mjs';

const run = promisify(execFile);

/** This example's folder. */
export const EXAMPLE = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(EXAMPLE, '..', '..');
const MODULES = join(EXAMPLE, 'node_modules');
const STAMP = join(MODULES, '.a4h-installed');
const LIBRARY = join(MODULES, 'a4h-a2a');

/** What the install depends on: the example's manifest and lock, and the library's dependencies. */
async function fingerprint() {
  const hash = createHash('sha256');
  for (const file of [join(EXAMPLE, 'package.json'), join(EXAMPLE, 'package-lock.json')]) hash.update(await readFile(file));
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  hash.update(JSON.stringify([root.dependencies, root.peerDependencies]));
  return hash.digest('hex');
}

/** Replaces the installed a4h-a2a (its files, not its own node_modules) with this checkout, packed. */
async function refreshLibrary() {
  if (!existsSync(join(ROOT, 'dist', 'angular', 'index.js'))) {
    throw new Error('dist/angular/index.js is missing: run `npm run build` at the repository root first');
  }
  // Unpacked beside its place (not in the OS temp directory, often another file system) so the moves are renames.
  await mkdir(MODULES, { recursive: true });
  const dir = await mkdtemp(join(MODULES, '.a4h-pack-'));
  try {
    // --ignore-scripts: the build is already there (no `prepare` rebuild).
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT });
    const unpacked = join(dir, 'package');
    await run('tar', ['xzf', join(dir, stdout.trim().split('\n').at(-1)), '-C', dir]);
    await mkdir(LIBRARY, { recursive: true });
    for (const entry of await readdir(LIBRARY)) {
      if (entry !== 'node_modules') await rm(join(LIBRARY, entry), { recursive: true, force: true });
    }
    for (const entry of await readdir(unpacked)) await rename(join(unpacked, entry), join(LIBRARY, entry));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Throws when the example's lock lists other dependencies for a4h-a2a than the library has (npm ci would not install them). */
async function checkLock() {
  const lock = JSON.parse(await readFile(join(EXAMPLE, 'package-lock.json'), 'utf8'));
  const root = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8'));
  const locked = lock.packages?.['node_modules/a4h-a2a']?.dependencies ?? {};
  if (JSON.stringify(sorted(locked)) !== JSON.stringify(sorted(root.dependencies ?? {}))) {
    throw new Error(
      'examples/angular/package-lock.json lists other dependencies for a4h-a2a than package.json has: run `npm install --ignore-scripts` in examples/angular and commit its lock',
    );
  }
}

const sorted = (record) => Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

/** Whether the example's dependencies are installed as its lock says (`installAngularExample` checks this first). */
export async function installedUpToDate() {
  return existsSync(STAMP) && (await readFile(STAMP, 'utf8')).trim() === (await fingerprint());
}

/** Copies the library in from this checkout (packed) when the example is installed; throws, saying what to run, when it is not. */
export async function refreshAngularExample() {
  if (!(await installedUpToDate())) {
    throw new Error(
      'examples/angular is not installed, or its lock changed: run `node examples/angular/setup.mjs install` (npm test does)',
    );
  }
  await refreshLibrary();
}

/**
 * `npm ci` in the example when its lock (or the library's dependencies) changed since the last
 * install; then the library copied in anew. Resolves with what was done, in a few words.
 */
export async function installAngularExample() {
  await checkLock();
  let did = 'dependencies up to date';
  if (!(await installedUpToDate())) {
    // --ignore-scripts: no `prepare` of the linked library (already built) and no native rebuilds (prebuilt packages).
    await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: EXAMPLE, maxBuffer: 16 * 1024 * 1024 });
    await writeFile(STAMP, `${await fingerprint()}\n`);
    did = 'dependencies installed (npm ci)';
  }
  await refreshLibrary();
  return `${did}; a4h-a2a copied from this checkout`;
}

/**
 * `ng build` (production) into dist/browser. Resolves with the build's output; rejects with an
 * Error whose message holds that output when the build fails.
 */
export async function buildAngularExample() {
  const ng = join(MODULES, '@angular', 'cli', 'bin', 'ng.js');
  if (!existsSync(ng)) throw new Error('the Angular CLI is not installed: run `node examples/angular/setup.mjs install` first');
  try {
    const { stdout, stderr } = await run(process.execPath, [ng, 'build'], {
      cwd: EXAMPLE,
      env: { ...process.env, NG_CLI_ANALYTICS: 'false', NO_COLOR: '1', CI: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    });
    return `${stdout}${stderr}`;
  } catch (error) {
    throw new Error(`ng build failed:\n${error.stdout ?? ''}${error.stderr ?? ''}`, { cause: error });
  }
}

async function main(command) {
  if (command !== 'install' && command !== 'build') {
    process.stderr.write('Usage: node examples/angular/setup.mjs install|build\n');
    return 2;
  }
  process.stderr.write(`angular chat: ${await installAngularExample()}\n`);
  if (command === 'build') process.stdout.write(await buildAngularExample());
  return 0;
}

if (startedAs(import.meta)) {
  const usage = `Usage: node examples/angular/setup.mjs install|build
  install: the Angular app's own packages (npm ci in examples/angular); build: that, then ng build`;
  const { positionals } = exampleArgs(usage, { allowPositionals: true, options: {} });
  if (positionals.length !== 1) usageError(usage, 'setup.mjs takes one command: install or build');
  main(positionals[0]).then(
    (code) => (process.exitCode = code),
    (error) => {
      process.stderr.write(`angular chat: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
