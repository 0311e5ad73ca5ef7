import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

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
