/**
 * Bundles the React chat with esbuild: src/main.tsx → dist/main.js (+ .map), for browsers, React in
 * its production build.
 *
 *     node examples/react-chat/build.mjs [--watch]
 *
 * The page imports the library as `a4h-a2a` and `a4h-a2a/ai-sdk`, like an app would; here those names
 * map to the library's source, so the bundle always has the current code (the server imports the
 * built library: `npm run build`). `platform: 'browser'` makes any Node built-in a build error.
 */
import { fileURLToPath } from 'node:url';
import { context, build } from 'esbuild';
import { startedAs } from '../started-as.mjs';
import { exampleArgs } from '../args.mjs';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

/** The esbuild options for the page. */
export const options = {
  entryPoints: [here('src/main.tsx')],
  outfile: here('dist/main.js'),
  bundle: true,
  platform: 'browser',
  format: 'esm',
  target: 'es2022',
  jsx: 'automatic',
  sourcemap: true,
  minify: true,
  define: { 'process.env.NODE_ENV': '"production"' },
  alias: { 'a4h-a2a/ai-sdk': here('../../src/ai-sdk/index.ts'), 'a4h-a2a': here('../../src/index.ts') },
  logLevel: 'warning',
};

/** Builds the bundle once; resolves with the output file's path and size. */
export async function buildReactChat() {
  const result = await build({ ...options, metafile: true });
  const [, output] = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('main.js')) ?? [];
  return { outfile: options.outfile, bytes: output?.bytes ?? 0, warnings: result.warnings };
}

if (startedAs(import.meta)) {
  const usage = `Usage: node examples/react-chat/build.mjs [--watch]
  bundles the page into ${options.outfile}; --watch rebuilds it on each change`;
  if (exampleArgs(usage, { options: { watch: { type: 'boolean' } } }).values.watch) {
    const ctx = await context(options);
    await ctx.watch();
    process.stdout.write(`watching; writing ${options.outfile}\n`);
  } else {
    const { outfile, bytes } = await buildReactChat();
    process.stdout.write(`built ${outfile} (${Math.round(bytes / 1024)} KB)\n`);
  }
}
