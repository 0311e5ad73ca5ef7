#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { realpathSync } from 'node:fs';
import { card, CARD_USAGE } from './commands/card.js';
import { chat, CHAT_USAGE } from './commands/chat.js';
import { context, CONTEXT_USAGE } from './commands/context.js';
import { resume, RESUME_USAGE } from './commands/resume.js';
import { send, SEND_USAGE } from './commands/send.js';
import { exitCodeForError, reportError } from './errors.js';
import { checkIdentitySecret } from './secret.js';
import { notice, UsageError, type Io } from './io.js';
import { styleFor } from './style.js';

const USAGE = `a4h — talk to A2A agents from a terminal or a script

Usage:
  a4h chat <agent-url> [--thread KEY] [--handle NAME] [--task ID] [credentials]
  a4h send <agent-url> [--thread KEY] [--handle NAME] [--task ID] [--json] [--timeout SECONDS] [credentials] <text…>
  a4h resume <agent-url> [--thread KEY] [--handle NAME] [--task ID] [--json] [credentials]
  a4h card <agent-url> [--json] [credentials]
  a4h context <handle> <key>

Credentials: -H 'Name: value' (repeatable), --bearer-env VAR (the token from an environment variable).
Options: --help for each command, --version, --verbose for error causes.
Environment: A4H_IDENTITY_SECRET (at least 16 bytes) keeps conversations across restarts;
NO_COLOR turns colour off.`;

const COMMANDS: Record<string, { run: (args: string[], io: Io) => Promise<number>; usage: string }> = {
  chat: { run: chat, usage: CHAT_USAGE },
  send: { run: send, usage: SEND_USAGE },
  resume: { run: resume, usage: RESUME_USAGE },
  card: { run: card, usage: CARD_USAGE },
  context: { run: context, usage: CONTEXT_USAGE },
};

export function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

/** Runs the command line; resolves to the exit status. */
export async function main(argv: string[], io: Io): Promise<number> {
  const [command, ...args] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.out.write(`${USAGE}\n`);
    return command === undefined ? 2 : 0;
  }
  if (command === '--version' || command === '-V') {
    io.out.write(`${version()}\n`);
    return 0;
  }
  const entry = COMMANDS[command];
  if (entry === undefined) {
    notice(io, io.style.red(`unknown command "${command}"`));
    io.err.write(`${USAGE}\n`);
    return 2;
  }
  try {
    if (!args.includes('--help') && !args.includes('-h')) checkIdentitySecret(io.env);
    return await entry.run(args, io);
  } catch (error) {
    if (error instanceof UsageError) {
      notice(io, io.style.red(error.message));
      io.err.write(`${entry.usage}\n`);
      return 2;
    }
    reportError(io, error, args.includes('--verbose') || args.includes('-v'));
    return exitCodeForError(error); // a too-short identity secret is a config error: 2
  }
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
