/**
 * `a4h completion bash|zsh|fish`: a script from the table of commands and their parsers' flags. The
 * bash one is run in bash (its completion function asked as bash asks it); zsh and fish are checked
 * by what they declare (neither shell is on the test machine).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETIONS } from '../../src/cli/commands/completion/command.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send/command.js';
import { COMMANDS } from '../../src/cli/main.js';
import { runCli } from './run-cli.js';

let dir: string;
let bashScript: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'a4h-completion-'));
  bashScript = join(dir, 'a4h.bash');
  const { code, stdout } = await runCli(['completion', 'bash']);
  expect(code).toBe(0);
  writeFileSync(bashScript, stdout);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What bash's completion function offers for each list of words typed so far (the last one being completed): one bash. */
function bashComplete(cases: string[][]): string[][] {
  const asks = cases.map((typed) => {
    const words = typed.map((word) => `'${word}'`).join(' ');
    return `COMP_WORDS=(${words}); COMP_CWORD=${typed.length - 1}; COMPREPLY=(); _a4h; echo "\${COMPREPLY[*]}"`;
  });
  const run = spawnSync('bash', ['-c', [`source '${bashScript}'`, ...asks].join('\n')], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '' },
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout
    .split('\n')
    .slice(0, cases.length)
    .map((line) => line.split(' ').filter((word) => word !== ''));
}

describe('a4h completion', { timeout: 60_000 }, () => {
  it('the table has every command a4h runs, and nothing else', () => {
    expect(Object.keys(COMPLETIONS).sort()).toEqual(Object.keys(COMMANDS).sort());
  });

  it('bash: commands after a4h, a command’s flags after it, its verbs too', () => {
    const [commands, c, thread, flags, verb, flag, shells] = bashComplete([
      ['a4h', 'se'],
      ['a4h', 'c'],
      ['a4h', 'send', '--th'],
      ['a4h', 'send', '--'],
      ['a4h', 'config', 's'],
      ['a4h', 'config', '--s'],
      ['a4h', 'completion', ''],
    ]);
    expect(commands).toEqual(['send']);
    expect(c).toEqual(Object.keys(COMMANDS).filter((name) => name.startsWith('c')));
    expect(thread).toEqual(['--thread']);
    expect(flags).toEqual(expect.arrayContaining(Object.keys(SEND_OPTIONS).map((name) => `--${name}`)));
    expect(verb).toEqual(['show']);
    expect(flag).toEqual(['--svc-param']);
    expect(shells).toEqual(['bash', 'zsh', 'fish', '--help', '-h']);
  });

  it('zsh: a #compdef function offering the commands, then each command’s flags', async () => {
    const { code, stdout } = await runCli(['completion', 'zsh']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^#compdef a4h\n/);
    expect(stdout).toContain(`compadd -- ${Object.keys(COMMANDS).join(' ')} --help --version`);
    expect(stdout).toMatch(/ send\) compadd -- .*--message-id/);
  });

  it('fish: one complete line per command flag, long and short', async () => {
    const { code, stdout } = await runCli(['completion', 'fish']);
    expect(code).toBe(0);
    expect(stdout).toContain("complete -c a4h -n '__fish_seen_subcommand_from send' -l timeout\n");
    expect(stdout).toContain("complete -c a4h -n '__fish_seen_subcommand_from send' -s H\n");
    expect(stdout).toContain("complete -c a4h -n '__fish_seen_subcommand_from completion' -a 'bash zsh fish'\n");
  });

  it('another shell, or none, is bad usage (2)', async () => {
    for (const args of [['completion', 'powershell'], ['completion']]) {
      const { code, stderr } = await runCli(args);
      expect(code).toBe(2);
      expect(stderr).toMatch(/completion takes one shell: bash, zsh, fish/);
    }
  });
});
