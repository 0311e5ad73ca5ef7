/** The shell quoting of the commands the CLI suggests (src/cli/output/shell-quote.ts), as an attacker would try it. */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { followCommand, shellQuote } from '../../../src/cli/output/shell-quote.js';

describe('shellQuote: the shell reads back the one word', () => {
  const words = [
    't1',
    'abc-DEF_0.9:/@%+=,',
    't1;touch PWNED',
    '$(touch PWNED2)',
    '`touch PWNED3`',
    "it's",
    "'",
    "''';touch PWNED4;'",
    'a b\tc',
    '*',
    '~root',
    '=ls',
    '-n',
    '',
    '"$HOME"\\',
  ];
  it.each(words)('%j', (word) => {
    // sh prints its one argument back: the word, exactly, and nothing ran.
    const echoed = execFileSync('sh', ['-c', `printf '%s' ${shellQuote(word)}`], { encoding: 'utf8' });
    expect(echoed).toBe(word);
  });

  it('a word of safe characters stays bare; anything else is single-quoted', () => {
    expect(shellQuote('3f2c-9a/b:c@d%e+f=g,h.i_j')).toBe('3f2c-9a/b:c@d%e+f=g,h.i_j');
    expect(shellQuote('t1;touch PWNED')).toBe("'t1;touch PWNED'");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote('')).toBe("''");
  });
});

describe('followCommand', () => {
  it('a4h task get, the id and the agent each one word', () => {
    const argv = execFileSync('sh', ['-c', `set -- ${followCommand('t1;touch PWNED', 'http://a/?x=1&y')}; printf '%s\\n' "$@"`], {
      encoding: 'utf8',
    });
    expect(argv).toBe('a4h\ntask\nget\nt1;touch PWNED\n-a\nhttp://a/?x=1&y\n--wait\n');
  });
});
