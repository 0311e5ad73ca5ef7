import { parseArgs, type ParseArgsConfig } from 'node:util';
import { checkExtensionUris, isA2AError, type TurnOutcome } from '../../node/index.js';
import { COMMON_OPTIONS } from './flags.js';
import { UsageError } from './io.js';
import { didYouMean } from './suggest.js';

/** The thread and handle a command uses when none is given, so a restart continues the same conversation. */
export const DEFAULT_THREAD = 'terminal';
export const DEFAULT_HANDLE = 'default';

export type Options = NonNullable<ParseArgsConfig['options']>;

/** The flags every turn command takes. */
export const THREAD_OPTIONS = {
  thread: { type: 'string' },
  handle: { type: 'string' },
  ...COMMON_OPTIONS,
} as const satisfies Options;

/** The flag that activates an extension on every call of the command's turns (repeatable). */
export const EXTENSION_OPTIONS = {
  extension: { type: 'string', multiple: true },
} as const satisfies Options;

/** The turns' `extensions` from `--extension URI`…, checked (a bad URI is a usage error); nothing when none is given. */
export function extensionsFrom(values: { extension?: string[] | undefined }): { extensions?: readonly string[] } {
  const given = values.extension;
  if (given === undefined || given.length === 0) return {};
  try {
    return { extensions: checkExtensionUris(given, '--extension', 'input', 'turn') };
  } catch (error) {
    throw isA2AError(error) ? new UsageError(error.message) : error;
  }
}

/** The parsed flags: booleans for boolean options, strings for the rest (lists for repeatable ones); absent when not given. */
export type Flags<O extends Options> = {
  [K in keyof O]?: O[K] extends { type: 'boolean' } ? boolean : O[K] extends { multiple: true } ? string[] : string;
};

/** Parses flags strictly: an unknown flag or a missing value is a usage error. */
export function parse<O extends Options>(args: string[], options: O): { values: Flags<O>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({ args, options, allowPositionals: true, strict: true });
    return { values: values as Flags<O>, positionals };
  } catch (error) {
    throw new UsageError(parseProblem(error as Error & { code?: string }, options));
  }
}

/**
 * Node's parse error in a few words: `unknown option --x` (with the flag it most likely meant: `unknown
 * option --thred: did you mean --thread?`), `--thread needs a value`, `--json takes no value`; `--json`
 * where no turn runs, the flag that prints JSON there (`-o json`).
 */
function parseProblem(error: Error & { code?: string }, options: Options): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  if (option !== undefined) {
    if (error.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      const typed = option.replace(/^--?/, '').replace(/=.*$/, '');
      // --json is a4h's turn events, where a turn runs (send, resume); a command that prints a result says JSON with -o json.
      if (typed === 'json' && 'output' in options) {
        return `--json is a4h's turn events (a4h send, a4h resume): this command prints JSON with -o json`;
      }
      return `unknown option ${option}${option.startsWith('--') ? didYouMean(typed, Object.keys(options), (name) => `--${name}`) : ''}`;
    }
    if (/argument missing/.test(error.message)) return `${option} needs a value`;
    if (/does not take an argument/.test(error.message)) return `${option} takes no value`;
  }
  return error.message;
}

/** A flag value that must not be empty when given. */
export function nonEmpty(name: string, value: string | undefined, fallback: string): string {
  if (value === undefined) return fallback;
  if (value.trim() === '') throw new UsageError(`--${name} must not be empty`);
  return value;
}

/**
 * The exit status of a turn that ended (the A2A CLI specification's §9.6: it says whether the command did
 * its job, not how the task turned out): 0 for every task outcome, completed, failed, waiting or nothing
 * to resume; 1 when a resume by message found that the agent never got it (send it again), or could not
 * tell yet whether it did (ask again later; do not send it again).
 */
export function exitCodeFor(outcome: TurnOutcome | undefined): number {
  return outcome === 'not-received' || outcome === 'unknown' || outcome === undefined ? 1 : 0;
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * A duration flag in milliseconds: a number of seconds (`30`, `0.5`) or a number with its unit (`500ms`,
 * `2s`, `5m`, `1h`); positive and at most `maxMs`, else a usage error naming the flag.
 */
export function durationMs(name: string, value: string, maxMs: number): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  const ms = match === null ? Number.NaN : Math.ceil(Number(match[1]) * UNITS[match[2] ?? 's']!);
  if (!Number.isFinite(ms) || ms <= 0 || ms > maxMs) {
    throw new UsageError(`--${name} takes a positive duration (seconds, or 500ms, 2s, 5m, 1h), at most ${Math.floor(maxMs / 1000)} s`);
  }
  return ms;
}
