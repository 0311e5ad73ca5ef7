import type { Logger } from '../../node/index.js';
import type { Io } from './io.js';
import { terminalLine } from '../output/terminal-text.js';

/**
 * The CLI's logger: warnings and errors as one line each on stderr; debug and info only with
 * `--verbose`. Fields are printed as `key=value` (the library never puts secrets in them). A message
 * or a field may quote the agent: each is sanitized for the terminal before its colour.
 */
export function stderrLogger(io: Io, verbose: boolean): Logger {
  const line = (level: string, colour: (t: string) => string) => (fields: Record<string, unknown>, message: string) => {
    const extra = Object.entries(fields)
      .filter(([, value]) => !(typeof value === 'string' && message.includes(value))) // named in the sentence already
      .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
      .join(' ');
    io.err.write(
      `${io.style.dim('a4h:')} ${colour(`${level}:`)} ${terminalLine(message)}${extra ? ` ${io.style.dim(terminalLine(extra))}` : ''}\n`,
    );
  };
  const quiet = () => undefined;
  return {
    debug: verbose ? line('debug', io.style.dim) : quiet,
    info: verbose ? line('info', io.style.cyan) : quiet,
    warn: line('warning', io.style.yellow),
    error: line('error', io.style.red),
  };
}
