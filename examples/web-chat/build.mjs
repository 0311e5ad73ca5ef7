/**
 * Bundles the web chat page with esbuild: src/main.ts → dist/main.js (+ .map), for browsers.
 *
 *     node examples/web-chat/build.mjs [--watch]
 *
 * The page imports the library as `a4h-a2a`, like an app would; here that name is mapped to the
 * library's source (../../src/index.ts), so the bundle always has the current code and needs no
 * `npm run build` (the server does: it imports the built library). `platform: 'browser'` makes any
 * Node built-in in the bundle a build error, so a successful build shows the core is browser-safe.
 */
import { fileURLToPath } from 'node:url';
import { context, build } from 'esbuild';
import { startedAs } from '../started-as.mjs';
import { exampleArgs } from '../args.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The esbuild options for the page. */
export const options = {
  entryPoints: [here('src/main.ts')],
  outfile: here('dist/main.js'),
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  sourcemap: true,
  minify: false,
  alias: { 'a4h-a2a': here('../../src/index.ts') },
  logLevel: 'warning',
};

/**
 * Builds the bundle once; resolves with the output file's path and size. Rejects when the Buffer
 * polyfill did not make it into the bundle: a bundler drops a bare `import './x.js'` from a package
 * marked `"sideEffects": false` (the library's own package.json is; this folder's lists the polyfill).
 */
export async function buildWebChat() {
  const result = await build({ ...options, metafile: true });
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('main.js')) ?? [];
  const polyfill = Object.entries(output?.inputs ?? {}).find(([file]) => file.endsWith('src/buffer-polyfill.ts'));
  if (polyfill === undefined || polyfill[1].bytesInOutput === 0) {
    throw new Error('the Buffer polyfill is missing from the bundle (was it marked free of side effects?)');
  }
  return { outfile: options.outfile, bytes: output?.bytes ?? 0, warnings: result.warnings };
}

if (startedAs(import.meta)) {
  const usage = `Usage: node examples/web-chat/build.mjs [--watch]
  bundles the page into ${options.outfile}; --watch rebuilds it on each change`;
  if (exampleArgs(usage, { options: { watch: { type: 'boolean' } } }).values.watch) {
    const ctx = await context(options);
    await ctx.watch();
    process.stdout.write(`watching; writing ${options.outfile}\n`);
  } else {
    const { outfile, bytes } = await buildWebChat();
    process.stdout.write(`built ${outfile} (${Math.round(bytes / 1024)} KB)\n`);
  }
}
