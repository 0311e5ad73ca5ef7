/** esbuild's browser bundle as the bundle tests make it: ESM, in memory, silent, with its metafile. */
import { build, type BuildOptions } from 'esbuild';

/** The options every browser bundle of the tests shares. */
const COMMON = { bundle: true, platform: 'browser', format: 'esm', write: false, logLevel: 'silent', metafile: true } as const;

/** Bundles for the browser with `options` (entry points, working folder, minify…) on top of the common ones. */
export function buildForBrowser(options: Omit<BuildOptions, keyof typeof COMMON>) {
  return build({ ...options, ...COMMON });
}
