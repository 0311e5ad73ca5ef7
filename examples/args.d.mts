/** Types of args.mjs. */
import type { ParseArgsConfig, parseArgs } from 'node:util';

/** An example script's command line: `--help` prints `usage` (exit 0); a bad flag prints it on stderr (exit 2). */
export declare function exampleArgs<T extends ParseArgsConfig>(usage: string, config: T): ReturnType<typeof parseArgs<T>>;

/** What is wrong with the command line, then `usage`, on stderr; exit 2. */
export declare function usageError(usage: string, message: string): never;
