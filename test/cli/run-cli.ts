import { spawn, type ChildProcess } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureSkill } from '../../fixtures/behaviours.js';

/** The built command (npm test builds before it runs the tests). */
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const SECRET = 'correct horse battery staple 0123456789';
/** A config dir that does not exist: the commands find no global configuration and no stored token. */
const NO_CONFIG = join(tmpdir(), 'a4h-tests-no-config');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliRun {
  child: ChildProcess;
  result: Promise<CliResult>;
  /** Resolves when stdout has shown `pattern`. */
  waitFor(pattern: RegExp): Promise<void>;
  /** What stdout has shown so far. */
  output(): string;
  /** What stderr has shown so far. */
  stderr(): string;
}

/** Starts `a4h …` in its own process with a clean environment (no colour, the test secret unless overridden). */
export function startCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number; cwd?: string } = {},
): CliRun {
  // No configuration of the machine's user: the config dir is one that does not exist (a test that wants one gives its own).
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    NO_COLOR: '1',
    A4H_IDENTITY_SECRET: SECRET,
    XDG_CONFIG_HOME: NO_CONFIG,
  };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const child = spawn(process.execPath, [CLI, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.cwd ? { cwd: options.cwd } : {}),
  });
  let stdout = '';
  let stderr = '';
  const waiters: { pattern: RegExp; resolve: () => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const waiter of [...waiters]) if (waiter.pattern.test(stdout)) waiter.resolve();
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  if (options.input !== undefined) child.stdin!.end(options.input);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15_000);
  const result = new Promise<CliResult>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
  return {
    child,
    result,
    output: () => stdout,
    stderr: () => stderr,
    waitFor: (pattern) =>
      new Promise<void>((resolve) => {
        if (pattern.test(stdout)) return resolve();
        waiters.push({ pattern, resolve });
      }),
  };
}

export function runCli(args: string[], options: Parameters<typeof startCli>[1] = {}): Promise<CliResult> {
  return startCli(args, options).result;
}

/** The NDJSON lines of `send --json`. */
export function jsonLines(stdout: string): Record<string, unknown>[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/**
 * The bodies of the blocks of `a4h send`'s text output (`Artifact: …`, `Message:`, `Status Message:`: a
 * label line, the content, a blank line), in order, joined with a newline: what the agent said.
 */
export function blocksOf(stdout: string): string {
  const bodies: string[] = [];
  let body: string[] | undefined;
  for (const line of stdout.split('\n')) {
    if (body !== undefined) {
      if (line === '') {
        bodies.push(body.join('\n'));
        body = undefined;
      } else body.push(line);
    } else if (/^(Artifact|Message|Status Message):/.test(line)) body = [];
  }
  return bodies.join('\n');
}

/** `runCli` whose runs are given `timeoutMs` unless a call says otherwise (for machines busy with other suites). */
export function runCliWithin(timeoutMs: number): typeof runCli {
  return (args, options = {}) => runCli(args, { timeoutMs, ...options });
}

/** The card at `cardUrl` as its agent serves it, written to `dir/name`; `change` edits it first. Resolves with the path. */
export async function writeCardFile(
  cardUrl: string,
  dir: string,
  name: string,
  change: (card: Record<string, unknown>) => void = () => undefined,
): Promise<string> {
  const card = (await (await fetch(cardUrl)).json()) as Record<string, unknown>;
  change(card);
  const path = join(dir, name);
  await writeFile(path, JSON.stringify(card));
  return path;
}

/** Runs the command, sends it SIGINT once its `--json` output has a text event (a reply streaming), and resolves with how it ended. */
export async function interruptedMidReply(args: string[]): Promise<CliResult> {
  const run = startCli(args);
  await run.waitFor(/"type":"text"/);
  run.child.kill('SIGINT');
  return run.result;
}

/** The card info of a fixture agent of the CLI tests: version 1.0.0, streaming, the fixtures' one skill. */
export const cardInfo = (name: string, description: string) => ({
  name,
  description,
  version: '1.0.0',
  streaming: true,
  skills: [fixtureSkill()],
});
