import { isA2AError } from '../errors.js';
import { notice, type Io } from './io.js';

/** Errors that mean the user asked for something impossible: exit status 2, like a usage error. */
export function isBadInput(error: unknown): boolean {
  return isA2AError(error, 'input', 'config');
}

/** The exit status of an error: 2 bad input, 5 credentials refused (an `auth` error), 1 otherwise. */
export function exitCodeForError(error: unknown): number {
  if (isBadInput(error)) return 2;
  return isA2AError(error, 'auth') ? 5 : 1;
}

/** One clear line on stderr; with `--verbose`, the cause chain under it. */
export function reportError(io: Io, error: unknown, verbose: boolean): void {
  const message = error instanceof Error ? error.message : String(error);
  notice(io, io.style.red(`error: ${message}`));
  if (!verbose) return;
  for (let cause = (error as { cause?: unknown })?.cause, depth = 0; cause !== undefined && depth < 8; depth++) {
    const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : JSON.stringify(cause);
    io.err.write(`  ${io.style.dim('caused by')} ${text}\n`);
    cause = (cause as { cause?: unknown })?.cause;
  }
}
