import { parseArgs } from 'node:util';

/**
 * An example script's command line, read with Node's `parseArgs` (`-h`/`--help` added): `--help`
 * prints `usage` on stdout and exits 0; a flag the script does not take, or a flag without its value,
 * prints what is wrong and `usage` on stderr and exits 2 — never a traceback.
 * @template {import('node:util').ParseArgsConfig} T
 * @param {string} usage
 * @param {T} config
 */
export function exampleArgs(usage, config) {
  let parsed;
  try {
    parsed = parseArgs({ ...config, options: { ...config.options, help: { type: 'boolean', short: 'h' } } });
  } catch (error) {
    return usageError(usage, error instanceof Error ? error.message : String(error));
  }
  if (/** @type {{ help?: boolean }} */ (parsed.values).help) {
    process.stdout.write(`${usage}\n`);
    process.exit(0);
  }
  return parsed;
}

/**
 * What is wrong with the command line, then `usage`, on stderr; exit 2.
 * @param {string} usage
 * @param {string} message
 * @returns {never}
 */
export function usageError(usage, message) {
  process.stderr.write(`${message}\n${usage}\n`);
  process.exit(2);
}
