/**
 * The Angular example built once for the browser tests that drive it (angular.test.ts and
 * angular-interrupt.test.ts, which vitest may run at once, in two workers): one process at a time (a
 * lock directory, made atomically) copies the library in and runs `ng build`, and only when what the
 * build reads changed since the last one (the library's dist/, the example's sources, configuration
 * and install); the build's output is kept beside it, so a test reads it either way. Two builds at
 * once would write one dist/ under a page the other test is serving.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildAngularExample, EXAMPLE, installedUpToDate, refreshAngularExample } from '../../examples/angular/setup.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The lock: a directory in the example's node_modules (ignored, and there once it is installed). */
const LOCK = join(EXAMPLE, 'node_modules', '.a4h-build-lock');
/** What the last build was built from, and what it printed (`ng build` empties dist/ first). */
const STAMP = join(EXAMPLE, 'dist', '.a4h-build.json');
/** A lock older than this was left by a process that died: taken over. */
const STALE_MS = 5 * 60_000;
/** The longest wait for another process's build. */
const WAIT_MS = 240_000;

/** Every file under `dir`, sorted (none when it is missing). */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

/** What the build reads: the library as packed (dist/, package.json), the example's sources, configuration and install stamp. */
async function fingerprint(): Promise<string> {
  const files = [
    ...(await filesUnder(join(ROOT, 'dist'))),
    join(ROOT, 'package.json'),
    ...(await filesUnder(join(EXAMPLE, 'src'))),
    ...['package.json', 'package-lock.json', 'angular.json', 'tsconfig.json', 'tsconfig.app.json'].map((name) => join(EXAMPLE, name)),
    join(EXAMPLE, 'node_modules', '.a4h-installed'),
  ];
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(`${file}\0`);
    hash.update(await readFile(file).catch(() => Buffer.from('(missing)')));
  }
  return hash.digest('hex');
}

/** Takes the lock, waiting for another process's build; a stale lock is taken over. */
async function lock(): Promise<void> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    try {
      await mkdir(LOCK);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const since = await stat(LOCK).then(
      (info) => info.mtimeMs,
      () => Date.now(),
    );
    if (Date.now() - since > STALE_MS) await rm(LOCK, { recursive: true, force: true });
    else if (Date.now() > until) throw new Error(`waited ${WAIT_MS} ms for another process's Angular build (${LOCK})`);
    else await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * The example built from this checkout (`ng build`, production), once for every test that asks with
 * the same inputs; resolves with that build's output. Needs the example installed
 * (`node examples/angular/setup.mjs install`), else rejects saying so.
 */
export async function builtAngularExample(): Promise<string> {
  if (!(await installedUpToDate())) await refreshAngularExample(); // rejects, saying what to run
  await lock();
  try {
    const inputs = await fingerprint();
    const last = (await readFile(STAMP, 'utf8').then(JSON.parse, () => undefined)) as { inputs: string; output: string } | undefined;
    if (last?.inputs === inputs && existsSync(join(EXAMPLE, 'dist', 'browser', 'index.html'))) return last.output;
    await refreshAngularExample(); // this checkout's library, packed
    const output = await buildAngularExample();
    await writeFile(STAMP, JSON.stringify({ inputs, output }));
    return output;
  } finally {
    await rm(LOCK, { recursive: true, force: true });
  }
}
