/**
 * The published package as a consumer gets it: `npm pack` (offline, no rebuild: the tests run after
 * `npm run build`), unpacked as `node_modules/a4h-a2a` of a temporary project whose own
 * dependencies (the package's dependencies and peer dependencies) are this checkout's, linked.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Packed {
  /** The consumer project: its `node_modules` holds the package and its dependencies. */
  dir: string;
  /** The tarball `npm pack` made, in `dir`. */
  tarball: string;
  /** The unpacked package, `dir/node_modules/a4h-a2a`. */
  unpacked: string;
  /** The package's files, relative to `unpacked`. */
  files: string[];
  /** Removes `dir`. */
  remove(): void;
}

/** Packs this checkout and unpacks it into a new consumer project (see the module's comment). */
export function packConsumer(prefix = 'a4h-pack-'): Packed {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  // --ignore-scripts: no `prepack` rebuild.
  const name = execFileSync('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' })
    .trim()
    .split('\n')
    .at(-1)!;
  const unpacked = join(dir, 'node_modules', 'a4h-a2a');
  mkdirSync(unpacked, { recursive: true });
  execFileSync('tar', ['xzf', join(dir, name), '-C', unpacked, '--strip-components=1']);
  const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  for (const dependency of [...Object.keys(pkg['dependencies'] ?? {}), ...Object.keys(pkg['peerDependencies'] ?? {})]) {
    mkdirSync(dirname(join(dir, 'node_modules', dependency)), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dependency), join(dir, 'node_modules', dependency), 'dir');
  }
  return {
    dir,
    tarball: join(dir, name),
    unpacked,
    files: listFiles(unpacked),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

function listFiles(root: string, prefix = ''): string[] {
  return readdirSync(join(root, prefix), { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(root, join(prefix, entry.name)) : [join(prefix, entry.name)],
  );
}
