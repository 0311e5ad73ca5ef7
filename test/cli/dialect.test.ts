/**
 * One dialect across every command (issue #47): the common flags spelled the same way in every parser
 * and every --help, `-o json` wherever a result is printed, the agent as a bare host:port everywhere,
 * `--task` taken as `--task-id`, `-v` the version, `--json` only where a turn runs, `card` and
 * `card get` one command.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startV1Agent, type FixtureAgent } from '../../fixtures/index.js';
import { AUTH_OPTIONS } from '../../src/cli/commands/auth/command.js';
import { CARD_OPTIONS } from '../../src/cli/commands/card/command.js';
import { CHAT_OPTIONS } from '../../src/cli/commands/chat/command.js';
import { CONFIG_OPTIONS } from '../../src/cli/commands/config/command.js';
import { CONFORMANCE_OPTIONS } from '../../src/cli/commands/conformance/command.js';
import { CONTEXT_OPTIONS } from '../../src/cli/commands/context/command.js';
import { HISTORY_OPTIONS } from '../../src/cli/commands/history/command.js';
import { RESUME_OPTIONS } from '../../src/cli/commands/resume/command.js';
import { SEND_OPTIONS } from '../../src/cli/commands/send/command.js';
import { COMMANDS } from '../../src/cli/main.js';
import { ONE_TASK_OPTIONS, TASK_OPTIONS } from '../../src/cli/commands/task/common.js';
import { runCliWithin } from './run-cli.js';

// Many processes, on a machine busy with other suites: each run and each test get room.
vi.setConfig({ testTimeout: 120_000 });
const runCli = runCliWithin(60_000);

type Options = Readonly<Record<string, { type: string; short?: string }>>;
/** Every command's parser, by the name it is typed with. */
const PARSERS: Record<string, Options> = {
  chat: CHAT_OPTIONS,
  send: SEND_OPTIONS,
  resume: RESUME_OPTIONS,
  history: HISTORY_OPTIONS,
  card: CARD_OPTIONS,
  context: CONTEXT_OPTIONS,
  config: CONFIG_OPTIONS,
  conformance: CONFORMANCE_OPTIONS,
  auth: AUTH_OPTIONS,
  'task list': TASK_OPTIONS,
  'task get': ONE_TASK_OPTIONS,
};
/** The commands that talk to an agent (all but context). */
const TALKS_TO_AGENT = Object.keys(PARSERS).filter((name) => name !== 'context');
/** Where a turn runs: the only commands with --json. */
const TURNS = ['send', 'resume'];

/** Every --help there is: each command, card get, and each task command. */
const HELPS = [
  ...Object.keys(COMMANDS).filter((name) => name !== 'completion' && name !== 'demo-server'),
  'card get',
  ...['get', 'cancel', 'list', 'subscribe', 'download', 'push-config'].map((name) => `task ${name}`),
];

let agent: FixtureAgent;
let hostPort: string;
beforeAll(async () => {
  agent = await startV1Agent();
  hostPort = agent.baseUrl.replace('http://', '').replace(/\/$/, '');
});
afterAll(async () => {
  await agent.close();
});

describe('the common flags: one definition, one spelling', () => {
  it.each(Object.keys(PARSERS))('%s: --verbose (no -v), -h/--help, -a/--agent-card, -o/--output, --json only where a turn runs', (name) => {
    const options = PARSERS[name]!;
    expect(options['verbose']).toEqual({ type: 'boolean' });
    expect(options['help']).toEqual({ type: 'boolean', short: 'h' });
    for (const option of Object.values(options)) expect(option.short).not.toBe('v');
    if (TALKS_TO_AGENT.includes(name)) expect(options['agent-card']).toEqual({ type: 'string', short: 'a' });
    if (name !== 'chat') expect(options['output']).toEqual({ type: 'string', short: 'o' });
    expect(options['json'] !== undefined).toBe(TURNS.includes(name));
    expect(options['task']).toBeUndefined();
  });

  it('--task-id wherever a task is named (send, chat, resume, the task commands)', () => {
    for (const name of ['send', 'chat', 'resume', 'task get']) expect(PARSERS[name]!['task-id'], name).toEqual({ type: 'string' });
  });

  it.each(HELPS)('a4h %s --help: the common flags as every command spells them', async (line) => {
    const command = line.split(' ');
    // --verbose before --help: a parser that did not take it would refuse the line (exit 2).
    const { code, stdout } = await runCli([...command, '--verbose', '--help']);
    expect(code).toBe(0);
    expect(stdout).not.toMatch(/<agent-url>/);
    expect(stdout).not.toMatch(/--task (ID|<)/);
    expect(stdout).not.toMatch(/(?<![\w/-])-v(?![\w-])(?!\/--version)/);
    expect(stdout).toContain('--verbose');
    if (!['context'].includes(command[0]!)) expect(stdout).toMatch(/-a REF/);
    if (command[0] !== 'chat') expect(stdout).toMatch(/-o text\|json/);
    if (!TURNS.includes(command[0]!)) expect(stdout).not.toMatch(/\[--json\]/);
  });

  it('a4h --help lists every command, card get and the task commands among them', async () => {
    const { stdout } = await runCli(['--help']);
    for (const name of Object.keys(COMMANDS)) expect(stdout, name).toMatch(new RegExp(`^  a4h ${name}\\b`, 'm'));
    expect(stdout).toMatch(/^  a4h card \[get\] <agent>/m);
    expect(stdout).toMatch(/^  a4h auth login <agent>/m);
    expect(stdout).toMatch(/^  a4h auth logout <agent>/m);
    expect(stdout).toMatch(/^  a4h task get\|cancel\|subscribe\|download/m);
  });
});

describe('-o json wherever a result is printed: one JSON document on stdout', () => {
  const documentOf = async (args: string[]) => {
    const { code, stdout } = await runCli(args);
    return { code, document: JSON.parse(stdout) as Record<string, unknown> };
  };

  it('send, card, card get, history, resume, context, config show, task get', async () => {
    const url = agent.url('/');
    const sent = await documentOf(['send', url, '-o', 'json', 'hello']);
    expect(sent).toMatchObject({ code: 0, document: { task: { status: { state: 'TASK_STATE_COMPLETED' } } } });
    const taskId = (sent.document['task'] as { id: string }).id;
    expect(await documentOf(['card', url, '-o', 'json'])).toMatchObject({ code: 0, document: { name: 'v1-main' } });
    expect(await documentOf(['card', 'get', url, '-o', 'json'])).toMatchObject({ code: 0, document: { name: 'v1-main' } });
    expect(await documentOf(['history', url, '--thread', 'dialect-none', '-o', 'json'])).toEqual({ code: 0, document: { exchanges: [] } });
    expect(await documentOf(['resume', url, '--thread', 'dialect-none', '-o', 'json'])).toMatchObject({
      code: 0,
      document: { type: 'end', outcome: 'none' },
    });
    expect(await documentOf(['context', 'h', 'k', '-o', 'json'])).toMatchObject({ code: 0, document: { handle: 'h', key: 'k' } });
    expect(await documentOf(['config', 'show', url, '-o', 'json'])).toMatchObject({ code: 0, document: { configDir: expect.any(String) } });
    expect(await documentOf(['task', 'get', taskId, '-a', url, '-o', 'json'])).toMatchObject({ code: 0, document: { id: taskId } });
  });

  it('a failure under -o json is the error envelope: history and card too', async () => {
    const closed = 'http://127.0.0.1:9/';
    for (const command of [['history'], ['card'], ['card', 'get']]) {
      const { code, document } = await documentOf([...command, closed, '-o', 'json']);
      expect(code, command.join(' ')).toBe(3);
      expect(document, command.join(' ')).toMatchObject({ error: { code: 'A2ACLI_ERR_UNREACHABLE' } });
    }
  });

  it('--json where no turn runs: refused, pointing to -o json (exit 2)', async () => {
    for (const args of [
      ['history', agent.url('/'), '--json'],
      ['card', agent.url('/'), '--json'],
      ['context', 'h', 'k', '--json'],
      ['config', 'show', '--json'],
      ['task', 'list', '-a', agent.url('/'), '--json'],
    ]) {
      const { code, stderr } = await runCli(args);
      expect(code, args[0]).toBe(2);
      expect(stderr, args[0]).toContain("--json is a4h's turn events (a4h send, a4h resume): this command prints JSON with -o json");
    }
  });
});

describe('the agent: a bare host:port on every command, positional or -a', () => {
  it('send, resume, history, card, task list, conformance (its --timeout a duration, as everywhere), chat, as -a and as the positional', async () => {
    const runs: [string, string[]][] = [
      ['send', ['send', '-a', hostPort, 'hello']],
      ['send', ['send', hostPort, 'hello']],
      ['resume', ['resume', '-a', hostPort, '--thread', 'dialect-none']],
      ['history', ['history', hostPort, '--thread', 'dialect-none']],
      ['history', ['history', '-a', hostPort, '--thread', 'dialect-none']],
      ['card', ['card', '-a', hostPort]],
      ['task list', ['task', 'list', '-a', hostPort]],
      ['conformance', ['conformance', hostPort, '--timeout', '10s']],
    ];
    for (const [name, args] of runs) {
      const { code, stderr } = await runCli(args);
      expect(stderr, name).not.toMatch(/not a URL/);
      expect(code, `${name}: ${stderr}`).toBe(0);
    }
    const chat = await runCli(['chat', hostPort, '--thread', 'dialect-chat'], { input: 'hello\n' });
    expect(chat.code).toBe(0);
    expect(chat.stderr).toContain('chatting with v1-main');
  });

  it('config show: the same rule names the same agent (http:// on loopback), positional or -a', async () => {
    const { stdout } = await runCli(['config', 'show', hostPort]);
    expect(stdout).toContain(`(http://${hostPort})`);
    const flagged = await runCli(['config', 'show', '-a', `localhost:${agent.baseUrl.split(':').at(-1)!.replace(/\/$/, '')}`]);
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).toMatch(/^Scope: .*\(http:\/\/localhost:\d+\)$/m);
  });
});

describe('--task-id everywhere; --task taken as it, said once', () => {
  it('resume --task X is resume --task-id X, with one warning on stderr', async () => {
    const url = agent.url('/');
    const named = await runCli(['resume', url, '--task-id', 'no-such-task']);
    const old = await runCli(['resume', url, '--task', 'no-such-task']);
    expect(old.code).toBe(named.code);
    expect(old.stdout).toBe(named.stdout);
    expect(named.stderr).not.toContain('--task is --task-id');
    expect(old.stderr.match(/--task is --task-id/g)).toHaveLength(1);
  });

  it('task get takes --task-id as its positional; send and chat take --task-id', async () => {
    const sent = JSON.parse((await runCli(['send', agent.url('/'), '-o', 'json', 'hello'])).stdout) as { task: { id: string } };
    const byFlag = await runCli(['task', 'get', '--task-id', sent.task.id, '-a', agent.url('/'), '-o', 'json']);
    expect(byFlag.code).toBe(0);
    expect(JSON.parse(byFlag.stdout)).toMatchObject({ id: sent.task.id });
    const chat = await runCli(['chat', agent.url('/'), '--task', 'no-such-task', '--history', '0'], { input: '' });
    expect(chat.stderr).toContain('--task is --task-id');
    expect(chat.code).toBe(0);
  });
});

describe('-v is --version; --verbose is verbose; --timeout one form', () => {
  it('--timeout DURATION the same way on conformance, auth login and task get: 2s, 500ms, 1m', async () => {
    // A bad one names the flag and the forms every command takes.
    for (const args of [
      ['conformance', agent.url('/'), '--timeout', 'soon'],
      ['auth', 'login', agent.url('/'), '--oauth-client-id', 'c', '--oauth-client-secret-env', 'PATH', '--timeout', 'soon'],
      ['task', 'get', 't', '-a', agent.url('/'), '--wait', '--timeout', 'soon'],
    ]) {
      const { code, stderr } = await runCli(args);
      expect(code, args[0]).toBe(2);
      expect(stderr, args[0]).toContain('--timeout takes a positive duration (seconds, or 500ms, 2s, 5m, 1h)');
    }
  });

  it('a4h -v and every command -v print the version', async () => {
    const { stdout: version } = await runCli(['--version']);
    expect(version).toMatch(/^\d+\.\d+\.\d+/);
    for (const args of [['-v'], ['card', '-v'], ['context', '-v'], ['config', 'show', '-v'], ['task', 'list', '-v'], ['history', '-v']]) {
      const { code, stdout } = await runCli(args);
      expect([code, stdout], args.join(' ')).toEqual([0, version]);
    }
  });

  it('--verbose adds the causes on a command that had -v for it (card)', async () => {
    const plain = await runCli(['card', 'http://127.0.0.1:9/']);
    const verbose = await runCli(['card', 'http://127.0.0.1:9/', '--verbose']);
    expect(plain.stderr).not.toContain('Caused By:');
    expect(verbose.stderr).toContain('Caused By:');
  });
});

describe('card and card get: one command, one format', () => {
  it('the same record in text, the same card under -o json', async () => {
    const url = agent.url('/');
    const [card, get] = await Promise.all([runCli(['card', url]), runCli(['card', 'get', url])]);
    expect(card.code).toBe(0);
    expect(card.stdout).toBe(get.stdout);
    expect(card.stdout).toMatch(/^Name: v1-main\n/);
    const [cardJson, getJson] = await Promise.all([runCli(['card', url, '-o', 'json']), runCli(['card', 'get', url, '-o', 'json'])]);
    expect(JSON.parse(cardJson.stdout)).toEqual(JSON.parse(getJson.stdout));
    expect(JSON.parse(cardJson.stdout)).toEqual(await (await fetch(`${url}.well-known/agent-card.json`)).json());
  });
});
