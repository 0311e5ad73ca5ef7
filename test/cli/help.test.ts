/**
 * The usage is complete and stays so: every flag a command's parser takes is in `a4h --help`, in
 * `a4h <command> --help`, in docs/cli.md and in the README (all but `--help` and `--verbose`, which
 * every command takes and the usage says once), and no usage names a flag the parser does not take.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CARD_OPTIONS } from '../../src/cli/commands/card/command.js';
import { CHAT_OPTIONS } from '../../src/cli/commands/chat/command.js';
import { COMPLETION_OPTIONS } from '../../src/cli/commands/completion/command.js';
import { CONFIG_OPTIONS } from '../../src/cli/commands/config/command.js';
import { CONFORMANCE_OPTIONS } from '../../src/cli/commands/conformance/command.js';
import { CONTEXT_OPTIONS } from '../../src/cli/commands/context/command.js';
import { RESUME_OPTIONS } from '../../src/cli/commands/resume/command.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send/command.js';
import { runCli } from './run-cli.js';

type Options = Record<string, { type: 'string' | 'boolean'; short?: string }>;
const PARSERS: Record<string, Options> = {
  chat: CHAT_OPTIONS,
  send: SEND_OPTIONS,
  resume: RESUME_OPTIONS,
  card: CARD_OPTIONS,
  context: CONTEXT_OPTIONS,
  config: CONFIG_OPTIONS,
  completion: COMPLETION_OPTIONS,
  conformance: CONFORMANCE_OPTIONS,
};
const COMMANDS = Object.keys(PARSERS);
const GLOBAL = new Set(['help', 'verbose']);

/** The option names of the flags `text` shows (`--name`, or `-X` for the option whose short is X). */
function flagsIn(text: string, options: Options): string[] {
  return [...text.matchAll(/(?<![\w-])(--[a-z][a-z0-9-]*|-[A-Za-z])(?![\w-])/g)].map(([flag]) => {
    if (flag.startsWith('--')) return flag.slice(2);
    return Object.entries(options).find(([, option]) => option.short === flag.slice(1))?.[0] ?? flag;
  });
}

/** Each command's synopsis in `text`: its `a4h <command>` line and the indented lines that go on with it. */
function synopses(text: string): Map<string, string> {
  const found = new Map<string, string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const start = /^\s*(?:Usage: )?a4h (\w+) /.exec(line);
    if (start && COMMANDS.includes(start[1]!)) {
      current = start[1]!;
      found.set(current, line);
    } else if (current !== undefined && /^\s+\[/.test(line)) {
      found.set(current, `${found.get(current)!} ${line}`);
    } else {
      current = undefined;
    }
  }
  return found;
}

/** What a synopsis must show: the parser's flags but the global ones, sorted. */
const expected = (command: string) =>
  Object.keys(PARSERS[command]!)
    .filter((name) => !GLOBAL.has(name))
    .sort();
/** The flags a synopsis shows, placeholders expanded, the global ones left out, sorted and unique. */
const shown = (command: string, synopsis: string, placeholders: Record<string, string>) => {
  let text = synopsis;
  for (const [placeholder, flags] of Object.entries(placeholders)) text = text.split(placeholder).join(flags);
  return [...new Set(flagsIn(text, PARSERS[command]!))].filter((name) => !GLOBAL.has(name)).sort();
};

describe("every command's usage lists exactly its parser's flags", () => {
  it('a4h --help (its [credentials], [mutual TLS] and [signed cards] as its own lines spell them)', async () => {
    const { stdout } = await runCli(['--help']);
    const placeholders = {
      '[credentials]': /^Credentials: (.*)$/m.exec(stdout)![1]!,
      '[mutual TLS]': /^Mutual TLS: (.*)$/m.exec(stdout)![1]!,
      '[signed cards]': /^Signed cards: (.*)$/m.exec(stdout)![1]!,
    };
    const lines = synopses(stdout);
    expect([...lines.keys()]).toEqual(COMMANDS);
    for (const command of COMMANDS) expect(shown(command, lines.get(command)!, placeholders), command).toEqual(expected(command));
  });

  it.each(COMMANDS)('a4h %s --help', async (command) => {
    const { code, stdout } = await runCli([command, '--help']);
    expect(code).toBe(0);
    expect(shown(command, synopses(stdout).get(command) ?? '', {})).toEqual(expected(command));
  });

  it('docs/cli.md and the README (its [options] as its options line spells them)', () => {
    const cli = readFileSync(new URL('../../docs/cli.md', import.meta.url), 'utf8');
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const block = /## The command line\n+```\n([\s\S]*?)```/.exec(readme)![1]!;
    const options = /^options: ([\s\S]*)$/m.exec(block)![1]!;
    for (const [name, text, placeholders] of [
      ['docs/cli.md', /```\n([\s\S]*?)```/.exec(cli)![1]!, {}],
      ['README.md', block, { '[options]': options }],
    ] as const) {
      const lines = synopses(text);
      for (const command of COMMANDS)
        expect(shown(command, lines.get(command) ?? '', placeholders), `${name}: ${command}`).toEqual(expected(command));
    }
  });
});

describe('a typo gets a suggestion', () => {
  it('a flag: unknown option --thred: did you mean --thread? (exit 2)', async () => {
    const { code, stderr } = await runCli(['send', '--thred', 'work', 'http://127.0.0.1:9/', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toBe('Error: A2ACLI_ERR_USAGE\nMessage: unknown option --thred: did you mean --thread?\nHint: a4h send --help\n');
    expect((await runCli(['chat', '--bearer-evn', 'T', 'http://127.0.0.1:9/'])).stderr).toContain('did you mean --bearer-env?');
  });

  it('a command: unknown command "sned": did you mean send? (exit 2)', async () => {
    const { code, stderr } = await runCli(['sned', 'http://127.0.0.1:9/', 'hi']);
    expect(code).toBe(2);
    expect(stderr).toBe('a4h: error: unknown command "sned": did you mean send? (a4h --help lists the commands)\n');
  });

  it('nothing close: no guess', async () => {
    expect((await runCli(['send', '--x', 'http://127.0.0.1:9/', 'hi'])).stderr).toBe(
      'Error: A2ACLI_ERR_USAGE\nMessage: unknown option --x\nHint: a4h send --help\n',
    );
    expect((await runCli(['frobnicate'])).stderr).toBe('a4h: error: unknown command "frobnicate" (a4h --help lists the commands)\n');
  });
});
