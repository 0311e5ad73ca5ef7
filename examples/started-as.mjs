import { realpathSync } from 'node:fs';

/**
 * Whether `meta` is the module Node was started with: `import.meta.filename` is a real path, and
 * `process.argv[1]` may go through a symlink (a checkout under one), so it is resolved first.
 * @param {ImportMeta} meta
 */
export function startedAs(meta) {
  if (process.argv[1] === undefined) return false;
  try {
    return realpathSync(process.argv[1]) === meta.filename;
  } catch {
    return false;
  }
}
