import { isA2AError, networkCause } from '../../node/index.js';
import { notice, type Io } from './io.js';
import { shellQuote } from '../output/shell-quote.js';
import { terminalLine } from '../output/terminal-text.js';

/**
 * Errors that mean the user asked for something impossible: exit status 2, like a usage error. An
 * extension the agent requires and the command did not activate (`--extension`) is one.
 */
export function isBadInput(error: unknown): boolean {
  return isA2AError(error, 'input', 'config');
}

/** The error's message, with its network cause (refused, unknown host, certificate…) when the chain names one. */
export function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = networkCause(error);
  return cause === undefined || message.includes(cause) ? message : `${message}: ${cause}`;
}

/**
 * One clear line on stderr, then `hint` (the next step) when given; with `--verbose`, the cause chain under it. An error may quote the agent:
 * each line is sanitized for the terminal before its colour.
 */
export function reportError(io: Io, error: unknown, verbose: boolean, hint?: string): void {
  notice(io, io.style.red(`error: ${terminalLine(describeError(error))}`));
  if (hint !== undefined) notice(io, io.style.dim(terminalLine(hint)));
  // An extension the agent requires: the flag that activates it.
  if (isA2AError(error, 'input') && error.extensions?.length) {
    notice(io, io.style.dim(terminalLine(`activate it with ${error.extensions.map((uri) => `--extension ${shellQuote(uri)}`).join(' ')}`)));
  }
  if (!verbose) return;
  for (let cause = (error as { cause?: unknown })?.cause, depth = 0; cause !== undefined && depth < 8; depth++) {
    const text = cause instanceof Error ? `${cause.name}: ${cause.message}` : JSON.stringify(cause);
    io.err.write(`  ${io.style.dim('caused by')} ${terminalLine(String(text))}\n`);
    cause = (cause as { cause?: unknown })?.cause;
  }
}
