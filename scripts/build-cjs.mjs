/**
 * The CommonJS build beside the ESM one, for `require()` under runtimes that do not load ES modules
 * (Jest's default runtime, ts-jest in CommonJS mode: NestJS, jest-preset-angular).
 *
 * Every library module of `src/` (not the command, and not `a4h-a2a/angular`: both stay ESM only, Angular
 * itself being ESM only) is transformed on its own by
 * esbuild into `dist/cjs/`, module for module, so a CommonJS consumer gets one copy of each module
 * whichever entry it requires. `dist/cjs/package.json` says `"type": "commonjs"`, and the declarations
 * `tsc` wrote for the ESM build are copied beside the CommonJS files (their maps re-pointed at `src/`),
 * so TypeScript reads them as CommonJS declarations. Run after `tsc -p tsconfig.build.json`.
 *
 * The official SDK's own CommonJS build requires `jose`, which is ESM only: Jest's CommonJS runtime
 * cannot load it. So this build carries the SDK (the four entries the library uses) and jose (which the
 * library also imports itself, to check card signatures) bundled
 * into one CommonJS file, `dist/cjs/vendor/a2a-sdk.js`, with their licenses beside it, and the
 * library's CommonJS modules require the SDK from there. rxjs, undici and zod ship CommonJS and are
 * required from the consumer's node_modules as usual. The SDK's gRPC client is bundled apart, into
 * `dist/cjs/vendor/a2a-sdk-grpc.js`, required only when a gRPC interface is chosen; its own imports of
 * `@grpc/grpc-js` and `@bufbuild/protobuf` (optional peer dependencies) stay requires of the
 * consumer's node_modules.
 */
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SRC = join(ROOT, 'src');
const DIST = join(ROOT, 'dist');
const OUT = join(DIST, 'cjs');
const VENDOR = join(OUT, 'vendor');

/** The SDK entries the library imports, by the file in `dist/cjs/vendor/` that stands for each. */
const VENDORED = {
  '@a2a-js/sdk': 'sdk',
  '@a2a-js/sdk/client': 'client',
  '@a2a-js/sdk/compat/v0_3': 'compat',
  '@a2a-js/sdk/errors': 'errors',
  jose: 'jose',
};

/** SDK entries loaded on demand (a dynamic import), each bundled into a vendor file of its own. */
const VENDORED_APART = {
  '@a2a-js/sdk/client/grpc': 'a2a-sdk-grpc',
};

/** What the apart-vendored SDK entries import but never carry: the optional peer dependencies. */
const PEERS_APART = ['@grpc/grpc-js', '@bufbuild/protobuf'];

/**
 * Each module is its own entry: every import but the entry stays a `require`, and an SDK entry's
 * becomes the vendored stand-in's, relative to the requiring module.
 */
const requireVendored = {
  name: 'require-vendored-sdk',
  setup(build) {
    build.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const stand = VENDORED[args.path] ?? VENDORED_APART[args.path];
      if (stand === undefined && /^(@a2a-js\/sdk|jose)(\/|$)/.test(args.path)) {
        throw new Error(`${args.path} (in ${args.importer}) is not vendored: add it to VENDORED`);
      }
      if (stand === undefined) return { path: args.path, external: true };
      const from = relative(dirname(args.importer), SRC);
      return { path: `./${join(from, 'vendor', `${stand}.js`).split('\\').join('/')}`.replace(/^\.\/\.\.\//, '../'), external: true };
    });
  },
};

/** The library's modules, relative to `src/`, without the command's and the Angular entry's (ESM only). */
const modules = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .map((path) => path.split('\\').join('/'))
  .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts') && !path.startsWith('cli/') && !path.startsWith('angular/'));

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
  bundle: true,
  // A dynamic import (the gRPC support's) becomes a require: Jest's CommonJS runtime has no import().
  supported: { 'dynamic-import': false },
  plugins: [requireVendored],
  logLevel: 'warning',
});
writeFileSync(join(OUT, 'package.json'), '{ "type": "commonjs" }\n');

// The SDK and jose, one CommonJS file; a stand-in per entry; the licenses.
const versionOf = (name) => JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')).version;
await build({
  stdin: {
    contents: Object.entries(VENDORED)
      .map(([entry, stand]) => `export * as ${stand} from '${entry}';`)
      .join('\n'),
    resolveDir: ROOT,
    sourcefile: 'vendor.js',
  },
  outfile: join(VENDOR, 'a2a-sdk.js'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'es2022',
  legalComments: 'eof',
  banner: {
    js: `/* @a2a-js/sdk ${versionOf('@a2a-js/sdk')} (Apache-2.0, a2a-js-sdk.LICENSE) and jose ${versionOf('jose')} (MIT, jose.LICENSE.md), bundled for CommonJS. */`,
  },
  logLevel: 'warning',
});
for (const [entry, file] of Object.entries(VENDORED_APART)) {
  await build({
    entryPoints: [entry],
    absWorkingDir: ROOT,
    outfile: join(VENDOR, `${file}.js`),
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'es2022',
    external: PEERS_APART.flatMap((peer) => [peer, `${peer}/*`]),
    legalComments: 'eof',
    banner: { js: `/* ${entry} of @a2a-js/sdk ${versionOf('@a2a-js/sdk')} (Apache-2.0, a2a-js-sdk.LICENSE), bundled for CommonJS. */` },
    logLevel: 'warning',
  });
}
for (const stand of Object.values(VENDORED)) {
  writeFileSync(join(VENDOR, `${stand}.js`), `'use strict';\nmodule.exports = require('./a2a-sdk.js').${stand};\n`);
}
copyFileSync(join(ROOT, 'node_modules/@a2a-js/sdk/LICENSE'), join(VENDOR, 'a2a-js-sdk.LICENSE'));
copyFileSync(join(ROOT, 'node_modules/jose/LICENSE.md'), join(VENDOR, 'jose.LICENSE.md'));

for (const path of modules) {
  const base = path.replace(/\.ts$/, '.d.ts');
  mkdirSync(dirname(join(OUT, base)), { recursive: true });
  copyFileSync(join(DIST, base), join(OUT, base));
  const map = JSON.parse(readFileSync(join(DIST, `${base}.map`), 'utf8'));
  map.sources = map.sources.map((source) =>
    relative(dirname(join(OUT, base)), resolve(dirname(join(DIST, base)), source))
      .split('\\')
      .join('/'),
  );
  writeFileSync(join(OUT, `${base}.map`), JSON.stringify(map));
}
