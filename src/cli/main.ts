#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { auth } from './commands/auth/command.js';
import { card } from './commands/card/command.js';
import { chat } from './commands/chat/command.js';
import { completion } from './commands/completion/command.js';
import { config } from './commands/config/command.js';
import { conformance } from './commands/conformance/command.js';
import { context } from './commands/context/command.js';
import { demoServer } from './commands/demo-server/command.js';
import { history } from './commands/history/command.js';
import { resume } from './commands/resume/command.js';
import { send } from './commands/send/command.js';
import { task } from './commands/task/command.js';
import { reportError } from './core/errors.js';
import { exitStatusOf } from './output/envelope.js';
import { withAliases } from './core/aliases.js';
import { checkIdentitySecret } from './core/secret.js';
import { notice, type Io } from './core/io.js';
import { styleFor } from './core/style.js';
import { runnable, type Runnable } from './core/command.js';
import { didYouMean } from './core/suggest.js';

const USAGE = `a4h — talk to A2A agents from a terminal or a script

Usage:
  a4h chat <agent> [-a REF] [--thread KEY] [--handle NAME] [--task-id ID] [--history N] [--debug] [--extension URI]…
           [credentials] [mutual TLS] [signed cards]
  a4h send <agent> [--text TEXT]… [--file PATH|URL]… [--data FILE|-]… [--media-type TYPE] [-o text|json] [--stream]
           [--async] [--wait] [--timeout DURATION] [--poll-interval DURATION] [--context-id ID] [--task-id ID]
           [--thread KEY] [--handle NAME] [--message-id ID] [--push-url URL] [-a REF] [--transport BINDING]…
           [--a2a-version VERSION] [--debug] [--json] [--attach PATH]… [--save DIR] [--extension URI]… [credentials]
           [mutual TLS] [signed cards] [<text…>]
  a4h resume <agent> [-a REF] [--thread KEY] [--handle NAME] [--task-id ID | --message ID [--sent-at WHEN]] [-o text|json]
             [--json] [--debug] [--extension URI]… [credentials] [mutual TLS] [signed cards]
  a4h history <agent> [-a REF] [--thread KEY] [--handle NAME] [--limit N] [--before CURSOR] [-o text|json] [--debug]
              [--extension URI]… [credentials] [mutual TLS] [signed cards]
  a4h card [get] <agent> [-a REF] [-o text|json] [--validate] [--debug] [--transport BINDING]… [--a2a-version VERSION]
           [credentials] [mutual TLS] [signed cards]
  a4h context <handle> <key> [-o text|json]
  a4h config show [<agent>] [-a REF] [-o text|json] [--config FILE] [--bearer TOKEN] [--api-key KEY]
                  [--svc-param KEY:VALUE]… [--insecure]
  a4h completion bash|zsh|fish
  a4h conformance <agent> [-a REF] [--text TEXT] [--timeout DURATION] [-o text|json] [credentials] [mutual TLS] [signed cards]
  a4h auth login <agent> [-a REF] [--device] [--oauth-client-id ID] [--oauth-client-secret-env VAR] [--oauth-scope S]…
                 [--oauth-card-scopes] [--oauth-token-url URL] [--oauth-device-url URL] [--timeout DURATION] [-o text|json] [--debug] [--insecure]
                 [--config FILE]
  a4h auth logout <agent> [-a REF] [-o text|json] [--config FILE]
  a4h demo-server [--port N] [--host ADDRESS] [--v03] [--grpc] [--memory FILE] [--sign-card [--jwks FILE]]
  a4h task get|cancel|subscribe|download <task-id>|--task-id ID -a REF [-o text|json] …   (a4h task --help)
  a4h task list -a REF [-o text|json] …;  a4h task push-config create|get|list|delete <task-id> … -a REF

The one dialect (docs/cli.md has the table): the agent is <agent> or -a/--agent-card REF, a URL or a bare
host:port (http:// on loopback, https:// elsewhere); -o text|json on every command that prints a result;
--json only where a turn runs (send, resume: a4h's turn events, one JSON line each; elsewhere it is refused:
use -o json); --task-id wherever a task is named (--task is taken as it, said on stderr); --verbose an
error's causes; -v is --version.
Credentials: -H 'Name: value'…, --bearer-env VAR, --bearer TOKEN, --api-key KEY, --oauth-client-id ID --oauth-client-secret-env VAR [--oauth-scope S]… [--oauth-token-url URL] [--oauth-card-scopes], --svc-param KEY:VALUE…, --insecure, --config FILE
(a credential flag shows in the process table and shell history: prefer A2ACLI_BEARER, A2ACLI_API_KEY, --bearer-env or a 0600 .env file;
an OAuth client secret comes from an environment variable; settings resolve flag > environment > local .env or --config FILE
> ~/.config/a4h/agents/HOST_PORT.env > ~/.config/a4h/.env > a4h auth login's token > default).
Mutual TLS: --cert FILE --key FILE (--key-pass-env VAR for an encrypted key's passphrase), --cacert FILE.
Signed cards: --trust-jwks FILE|URL (repeatable) trusts a JWKS's keys; --require-signed-card refuses
an agent whose card none of them signed (chat, send, resume, history, card, task, conformance).
Defaults of send (each overridden by its flag): text output (-o json), wait for the task to settle (--async),
--timeout 30m, polls every 1s growing to 15s (--poll-interval), the card's interface order (--transport), A2A 1.0
or newer (--a2a-version 0.3 allows older), TLS certificates verified.
Each command's options and defaults: a4h <command> --help (e.g. a4h send --help). -v/--version prints the
version (after a command too: a4h send -v); --verbose shows an error's causes. send follows the A2A CLI specification (docs/a2a-cli-compliance.md).
Environment: A4H_IDENTITY_SECRET (at least 16 bytes) keeps conversations across restarts;
A4H_PREVIOUS_IDENTITY_SECRETS (comma-separated) the secrets it replaced; NO_COLOR turns colour off.`;

/** The commands, in the order `a4h --help` lists them; each prints its own usage for `--help`. */
export const COMMANDS: Record<string, Runnable> = Object.fromEntries(
  [chat, send, resume, history, card, context, config, demoServer, completion, conformance, auth, task].map((command) => [
    command.name,
    'invoke' in command ? command : runnable(command),
  ]),
);

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** `-v`/`--version` among a command's flags (before a `--`): the version, as on its own. */
function wantsVersion(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  const flags = end < 0 ? args : args.slice(0, end);
  return flags.includes('-v') || flags.includes('--version');
}

/** Runs the command line; resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...given] = argv;
  // `a4h help send` is `a4h send --help`.
  if (command === 'help' && given[0] !== undefined && COMMANDS[given[0]] !== undefined) return COMMANDS[given[0]]!.invoke(['--help'], io);
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-v' || command === '-V' || wantsVersion(given)) {
    io.out.write(`${version()}\n`);
    return 0;
  }
  const run = COMMANDS[command];
  // `--task` is `--task-id` on the commands that name a task (said once on stderr).
  const named = ['send', 'chat', 'resume', 'task'].includes(command) && !given.includes('--help') && !given.includes('-h');
  const args = named ? withAliases(given, io) : given;
  if (run === undefined) {
    const guess = didYouMean(command, Object.keys(COMMANDS));
    notice(io, `${io.style.red(`error: unknown command "${command}"${guess}`)} (a4h --help lists the commands)`);
    return 2;
  }
  try {
    if (!args.includes('--help') && !args.includes('-h')) checkIdentitySecret(io.env);
  } catch (error) {
    reportError(io, error, args.includes('--verbose'));
    return exitStatusOf(error); // a too-short identity secret is a config error: 2
  }
  // The command parses its arguments and reports its own failures (core/command.ts).
  return run.invoke(args, io);
}

function isEntry(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return realpathSync(script) === fileURLToPath(import.meta.url) || pathToFileURL(script).href === import.meta.url;
  } catch {
    return false;
  }
}

if (isEntry()) {
  // A closed stdout (`a4h send … | head -1`) is no crash: the commands see it (onOutClosed) and end quietly.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  const io: Io = {
    out: process.stdout,
    err: process.stderr,
    style: styleFor(process.stderr),
    live: process.stdout.isTTY === true,
    env: process.env,
  };
  main(process.argv.slice(2), io).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      reportError(io, error, false);
      process.exitCode = 1;
    },
  );
}
