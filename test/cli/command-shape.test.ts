/**
 * One command shape (issue 47): every command parses, answers --help and reports a failure in one place
 * (src/cli/core/command.ts). Under -o json a failure of any command, a usage mistake included, is the
 * error envelope on stdout with exit 2; in text the specification's commands (send, card, task …) say it
 * as their fields, the others as a4h's one line.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './run-cli.js';

const AGENT = 'http://127.0.0.1:9/';

/** Every command that prints a result (`-o`), as typed, with what makes it run but for the mistake. */
const WITH_OUTPUT: readonly (readonly string[])[] = [
  ['send', AGENT, 'hi'],
  ['resume', AGENT],
  ['history', AGENT],
  ['card', AGENT],
  ['card', 'get', AGENT],
  ['context', 'handle', 'key'],
  ['config', 'show'],
  ['conformance', AGENT],
  ['auth', 'logout', AGENT],
  ['task', 'get', 'T1', '-a', AGENT],
  ['task', 'cancel', 'T1', '-a', AGENT],
  ['task', 'list', '-a', AGENT],
  ['task', 'subscribe', 'T1', '-a', AGENT],
  ['task', 'download', 'T1', '-a', AGENT],
  ['task', 'push-config', 'list', 'T1', '-a', AGENT],
];

/** The command's name as its hint says it: the words before its arguments. */
function nameOf(args: readonly string[]): string {
  if (args[0] === 'task') return `task ${args[1]}`;
  return args[0]!;
}

describe('one command shape: a failure told in one place', () => {
  it.each(WITH_OUTPUT.map((args) => [args.join(' '), args] as const))(
    'a4h %s -o json --bogus: the envelope on stdout, exit 2',
    async (_, args) => {
      const { code, stdout, stderr } = await runCli([...args, '-o', 'json', '--bogus']);
      expect(code).toBe(2);
      expect(JSON.parse(stdout)).toEqual({
        error: { code: 'A2ACLI_ERR_USAGE', message: 'unknown option --bogus', hint: `a4h ${nameOf(args)} --help`, a2aCode: null },
      });
      expect(stderr).toContain('Message: unknown option --bogus\n');
    },
  );

  it.each([
    [['send', AGENT, 'hi', '--bogus'], 'send'],
    [['card', AGENT, '--bogus'], 'card'],
    [['task', 'cancel', 'T1', '-a', AGENT, '--bogus'], 'task cancel'],
  ])('text, the specification’s command %j: its fields on stderr, nothing on stdout, exit 2', async (args, name) => {
    const { code, stdout, stderr } = await runCli(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(`Error: A2ACLI_ERR_USAGE\nMessage: unknown option --bogus\nHint: a4h ${name} --help\n`);
  });

  it.each([
    [['history', AGENT, '--bogus'], 'history'],
    [['context', 'h', 'k', '--bogus'], 'context'],
    [['conformance', AGENT, '--bogus'], 'conformance'],
  ])('text, a4h’s own command %j: one line with where its options are, exit 2', async (args, name) => {
    const { code, stdout, stderr } = await runCli(args);
    expect([code, stdout]).toEqual([2, '']);
    expect(stderr).toBe(`a4h: error: unknown option --bogus (a4h ${name} --help for its options)\n`);
  });

  it('a task command that does not exist: one line naming the likeliest, exit 2', async () => {
    const { code, stderr } = await runCli(['task', 'gte', 'T1', '-a', AGENT]);
    expect(code).toBe(2);
    expect(stderr).toBe('a4h: error: unknown task command "gte": did you mean get? (a4h task --help for its commands)\n');
  });

  it('a failure past the flags under -o json (an agent nobody serves): the envelope, its exit status', async () => {
    const { code, stdout } = await runCli(['history', AGENT, '-o', 'json']);
    expect(code).toBe(3);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE', hint: expect.any(String) } });
  });
});
