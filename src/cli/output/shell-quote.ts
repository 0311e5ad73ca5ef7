/**
 * A word of a command the CLI suggests (a task id, an agent, a cursor, an extension URI), as a
 * POSIX shell reads it back: the same one argument, whatever it holds. The ids come from an agent
 * nobody vouched for: unquoted, `t1;touch PWNED` pasted runs `touch PWNED`.
 */

/** Characters no POSIX shell (nor bash or zsh) gives a meaning inside a word. */
const SAFE = /^[A-Za-z0-9_./:@%+=,-]+$/;

/**
 * `word` as it is when it holds only safe characters (and does not start with `=`, which zsh
 * expands), else in single quotes, each `'` in it written `'\''`. The empty word is `''`.
 */
export function shellQuote(word: string): string {
  return SAFE.test(word) && !word.startsWith('=') ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The command that follows a task to its end: `a4h task get ID -a AGENT --wait`, each word quoted for the shell. */
export function followCommand(taskId: string, agent: string): string {
  return `a4h task get ${shellQuote(taskId)} -a ${shellQuote(agent)} --wait`;
}
