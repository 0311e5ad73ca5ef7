import { notice, type Io } from './io.js';

/** The old spellings a command still takes, and the flag each is. */
const ALIASES: Readonly<Record<string, string>> = { '--task': '--task-id' };

/**
 * The arguments with each old spelling (`--task ID`, `--task=ID`) put as the flag it is (`--task-id`),
 * before a `--`; the first one found is said once on stderr (`--task is --task-id`), so a script learns
 * the one name without breaking.
 */
export function withAliases(args: readonly string[], io: Io): string[] {
  const said = new Set<string>();
  const end = args.indexOf('--');
  return args.map((arg, i) => {
    if (end >= 0 && i >= end) return arg;
    const [name, ...value] = arg.split('=');
    const flag = ALIASES[name!];
    if (flag === undefined) return arg;
    if (!said.has(name!)) {
      said.add(name!);
      notice(io, io.style.yellow(`warning: ${name} is ${flag} (the one name on every command); taken as ${flag}`));
    }
    return value.length === 0 ? flag : `${flag}=${value.join('=')}`;
  });
}
