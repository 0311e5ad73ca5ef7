/**
 * The one shape of a command: a definition (its name, its flags, its help, what it does) and the one
 * place that parses its arguments, answers `--help`, reports its failures and picks its exit status.
 * Every command of `a4h` is a {@link Command}; `main.ts` holds the table of them.
 */
import type { HintContext } from '../output/hints.js';
import { outputFormat, reportFailure, type OutputMode } from '../output/output.js';
import { exitStatusOf } from '../output/envelope.js';
import { reportError } from './errors.js';
import { notice, UsageError, type Io } from './io.js';
import { parse, type Flags, type Options } from './options.js';

/** What a command works on, said as soon as it is known: the failure report's hint names it. */
export type About = Omit<HintContext, 'command'>;

/** What `run` is given: the parsed flags and positionals, where to write, and where to say what it works on. */
export interface Call<O extends Options> {
  /** The command's name, as its definition says it (`task get`): its messages and hints name it so. */
  readonly command: string;
  readonly values: Flags<O>;
  readonly positionals: string[];
  /** The arguments as given (after the command's name): where the order of flags matters (`send`'s parts). */
  readonly args: string[];
  readonly io: Io;
  /** The output mode `-o` (and `--stream`) asked for: `text` when the command has no `-o`. */
  readonly mode: OutputMode;
  /** Filled by `run` as it learns them (the agent, the task, the card): read when it fails. */
  readonly about: About;
}

/**
 * How a failure is told on stderr: `fields`, the A2A CLI specification's `Error:`, `Message:`, `A2A Code:`
 * and `Hint:` lines (its commands: `send`, `task …`, `card`), a usage mistake included; `line`, a4h's one
 * line (`a4h: error: …`, and for a usage mistake where its options are). Under `-o json` every command
 * also prints the error envelope on stdout.
 */
export type FailureStyle = 'fields' | 'line';

/** One command: a definition `main` dispatches to, `--help` prints and the tests walk. */
export interface Command<O extends Options = Options> {
  /** As typed after `a4h`: `send`, `task get`. */
  readonly name: string;
  /** Its `--help`: usage lines, then what it does, its flags and their defaults. */
  readonly usage: string;
  /** Its flags (`--verbose` and `-h/--help` among them: every command takes them). */
  readonly options: O;
  /** How its failures are told: a4h's `line` when not said. */
  readonly failures?: FailureStyle;
  /**
   * The words before the flags that are the command's own name (`card get` is `card`): dropped before
   * parsing. A group of commands (`task`) parses nothing itself: see {@link defineGroup}.
   */
  readonly aliases?: readonly string[];
  /** Does the command's work; resolves to its exit status. A usage mistake is thrown as a `UsageError`. */
  run(call: Call<O>): Promise<number>;
}

/** A command, typed by its flags. */
export function defineCommand<O extends Options>(command: Command<O>): Command<O> {
  return command;
}

/** What `main` calls: a command run on its arguments (after the command's name), to its exit status. */
export type Runnable = { readonly name: string; readonly usage: string; invoke(args: string[], io: Io): Promise<number> };

/**
 * Runs `command` on `args`: parses them (an unknown flag or a missing value is a usage mistake), prints
 * the usage for `--help`, runs it, and reports a failure the command's way ({@link FailureStyle}) with
 * the exit status the error's code gives (2 a usage mistake, 3 unreachable, 4 credentials, 5 a timeout,
 * else 1).
 */
export async function runCommand<O extends Options>(command: Command<O>, args: string[], io: Io): Promise<number> {
  const given = command.aliases !== undefined && command.aliases.includes(args[0] ?? '') ? args.slice(1) : args;
  let mode = modeFromArgs(given, 'output' in command.options);
  const about: About = {};
  try {
    const { values, positionals } = parse(given, command.options);
    if (values.help) {
      io.out.write(`${command.usage}\n`);
      return 0;
    }
    mode = modeFromArgs(given, 'output' in command.options, (values as { output?: string }).output);
    return await command.run({ command: command.name, values, positionals, args: given, io, mode, about });
  } catch (error) {
    return reportCommandFailure(io, command, mode, error, about, given.includes('--verbose'));
  }
}

/** A command as `main` holds it. */
export function runnable<O extends Options>(command: Command<O>): Runnable {
  return { name: command.name, usage: command.usage, invoke: (args, io) => runCommand(command, args, io) };
}

/**
 * A failure, told once: under `-o json` (or in `fields` style) the specification's report (the envelope
 * on stdout under `-o json`; `Error:`… on stderr); else a4h's line, for a usage mistake with where the
 * command's options are.
 */
function reportCommandFailure(
  io: Io,
  command: Pick<Command, 'name' | 'failures'>,
  mode: OutputMode,
  error: unknown,
  about: About,
  verbose: boolean,
): number {
  if (mode.format === 'json' || command.failures === 'fields')
    return reportFailure(io, mode, error, { command: command.name, ...about, verbose });
  if (error instanceof UsageError) {
    notice(io, `${io.style.red(`error: ${error.message}`)} (a4h ${command.name} --help for its options)`);
    return 2;
  }
  reportError(io, error, verbose);
  return exitStatusOf(error);
}

/**
 * The output mode: `-o json`/`--output json` (read from the raw arguments when the flags did not parse,
 * so a usage mistake under `-o json` is an envelope too), `--stream` with it. `text` for a command
 * without `-o`. A format other than text or json is a usage mistake.
 */
export function modeFromArgs(args: readonly string[], hasOutput: boolean, parsed?: string): OutputMode {
  if (!hasOutput) return { format: 'text', stream: false };
  const stream = args.includes('--stream');
  if (parsed !== undefined) return { format: outputFormat(parsed), stream };
  const json = args.some(
    (arg, i) => arg === '--output=json' || arg === '-ojson' || ((arg === '-o' || arg === '--output') && args[i + 1] === 'json'),
  );
  return { format: json ? 'json' : 'text', stream };
}

/** A command made of commands (`a4h task get|cancel|…`): its first word names the one that runs. */
export interface Group {
  readonly name: string;
  /** Its `--help` (the list of its commands and where each one's help is). */
  readonly usage: string;
  readonly commands: Record<string, Runnable>;
}

/**
 * A group as `main` holds it: no word, its usage and exit 2; `--help` with no known command after it,
 * its usage; an unknown word, a usage mistake with the likeliest command; else that command on the rest.
 */
export function defineGroup(group: Group, suggest: (word: string, names: string[]) => string): Runnable {
  return {
    name: group.name,
    usage: group.usage,
    async invoke(args, io) {
      const [word, ...rest] = args;
      const sub = word === undefined ? undefined : group.commands[word];
      if (word === undefined || (sub === undefined && (args.includes('--help') || args.includes('-h')))) {
        io.out.write(`${group.usage}\n`);
        return word === undefined ? 2 : 0;
      }
      if (sub === undefined) {
        notice(
          io,
          `${io.style.red(`error: unknown ${group.name} command "${word}"${suggest(word, Object.keys(group.commands))}`)} (a4h ${group.name} --help for its commands)`,
        );
        return 2;
      }
      return sub.invoke(rest, io);
    },
  };
}
