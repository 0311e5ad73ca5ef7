/**
 * The CommonJS build beside the ESM one, for `require()` under runtimes that do not load ES modules
 * (Jest's default runtime, ts-jest in CommonJS mode: NestJS, jest-preset-angular).
 *
 * Every library module of `src/` (not the command, which stays ESM) is transformed on its own by
 * esbuild into `dist/cjs/`, module for module, so a CommonJS consumer gets one copy of each module
 * whichever entry it requires. `dist/cjs/package.json` says `"type": "commonjs"`, and the declarations
 * `tsc` wrote for the ESM build are copied beside the CommonJS files (their maps re-pointed at `src/`),
 * so TypeScript reads them as CommonJS declarations. Run after `tsc -p tsconfig.build.json`.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cjs');

/** The library's modules, relative to `src/`, without the command's. */
const modules = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .map((path) => path.split('\\').join('/'))
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('cli/'));

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: modules.map((path) => join(SRC, path)),
  outbase: SRC,
  outdir: OUT,
  format: 'cjs',
  platform: 'node',
  target: 'es2022',
  tsconfig: join(ROOT, 'tsconfig.build.json'),
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
});
writeFileSync(join(OUT, 'package.json'), '{ "type": "commonjs" }\n');

for (const path of modules) {
  const base = path.replace(/\.ts$/, '.d.ts');
  mkdirSync(dirname(join(OUT, base)), { recursive: true });
  copyFileSync(join(DIST, base), join(OUT, base));
  const map = JSON.parse(readFileSync(join(DIST, `${base}.map`), 'utf8'));
  map.sources = map.sources.map((source) => relative(dirname(join(OUT, base)), resolve(dirname(join(DIST, base)), source)).split('\\').join('/'));
  writeFileSync(join(OUT, `${base}.map`), JSON.stringify(map));
}
