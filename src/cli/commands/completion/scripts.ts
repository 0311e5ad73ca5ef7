/**
 * Shell completion scripts for bash, zsh and fish, written from one table: the commands, the words
 * that may follow each (a verb, a shell), and the flags each takes. Flags complete after a command;
 * anything else completes as a file name.
 */

/** What completes after one command. */
export interface CommandCompletion {
  /** Words that follow the command (`show`, `bash`…). */
  words: readonly string[];
  /** Its flags, spelled as typed (`--thread`, `-H`). */
  flags: readonly string[];
}

/** The table: command name → what completes after it. */
export type CompletionTable = Readonly<Record<string, CommandCompletion>>;

/** The shells `a4h completion` writes for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** Flags of a parser's options table, as typed: `--name` for each, and `-X` for a short form. */
export function flagsOf(options: Readonly<Record<string, { type: string; short?: string }>>): string[] {
  const flags: string[] = [];
  for (const [name, option] of Object.entries(options)) {
    flags.push(`--${name}`);
    if (option.short !== undefined) flags.push(`-${option.short}`);
  }
  return flags;
}

/** A word list for a shell string: only characters a command or flag name has (nothing to quote). */
function words(list: readonly string[]): string {
  for (const word of list) if (!/^[A-Za-z0-9:._-]+$/.test(word)) throw new Error(`not a completion word: ${word}`);
  return list.join(' ');
}

/** The script for `shell`. */
export function completionScript(shell: Shell, table: CompletionTable): string {
  const commands = Object.keys(table);
  const each = Object.entries(table);
  if (shell === 'bash') {
    const cases = each.map(([command, c]) => `    ${command}) words="${words([...c.words, ...c.flags])}" ;;`).join('\n');
    return `# a4h completion for bash: source <(a4h completion bash), or save it in ~/.local/share/bash-completion/completions/a4h
_a4h() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" words=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${words(commands)} --help --version" -- "$cur"))
    return
  fi
  case "\${COMP_WORDS[1]}" in
${cases}
  esac
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
}
complete -o default -F _a4h a4h
`;
  }
  if (shell === 'zsh') {
    const cases = each.map(([command, c]) => `    ${command}) compadd -- ${words([...c.words, ...c.flags])} ;;`).join('\n');
    return `#compdef a4h
# a4h completion for zsh: source <(a4h completion zsh), or save it as _a4h in a directory of $fpath
_a4h() {
  if (( CURRENT == 2 )); then
    compadd -- ${words(commands)} --help --version
    return
  fi
  case "$words[2]" in
${cases}
  esac
  _files
}
if (( $+functions[compdef] )); then compdef _a4h a4h; fi
`;
  }
  const lines = each.flatMap(([command, c]) => [
    ...(c.words.length > 0 ? [`complete -c a4h -n '__fish_seen_subcommand_from ${command}' -a '${words(c.words)}'`] : []),
    ...c.flags.map((flag) => {
      const option = flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`;
      return `complete -c a4h -n '__fish_seen_subcommand_from ${command}' ${option}`;
    }),
  ]);
  return `# a4h completion for fish: a4h completion fish > ~/.config/fish/completions/a4h.fish
complete -c a4h -n '__fish_use_subcommand' -a '${words(commands)}'
${lines.join('\n')}
`;
}
