import type { Style } from './style.js';

/** Where the command writes: answers to `out`, everything else (notices, logs, errors) to `err`. */
export interface Io {
  out: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  err: NodeJS.WritableStream & { isTTY?: boolean };
  /** Colour for `err` notices. */
  style: Style;
  /** `out` is a terminal: stream text live and show progress. */
  live: boolean;
  env: NodeJS.ProcessEnv;
}

/** A usage mistake: reported with the command's usage line, exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** One line to stderr, prefixed, for notices and errors. */
export function notice(io: Io, text: string): void {
  io.err.write(`${io.style.dim('a4h:')} ${text}\n`);
}

/**
 * Calls `closed` when `out` is a pipe whose reader went away (`a4h send … | head -1`: the next write
 * fails with EPIPE). Returns the function that stops listening.
 */
export function onOutClosed(io: Io, closed: () => void): () => void {
  const listener = (error: NodeJS.ErrnoException): void => {
    if (error.code === 'EPIPE') closed();
  };
  io.out.on('error', listener);
  return () => io.out.off('error', listener);
}
