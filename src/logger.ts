/**
 * The logger shape the library writes to: pino's and console's methods both fit
 * (`logger.warn({ taskId }, 'message')`). The library is silent unless given one.
 */
export interface Logger {
  /** Detail for debugging: each step of a turn. */
  debug(fields: Record<string, unknown>, message: string): void;
  /** Something worth knowing that needs nothing done. */
  info(fields: Record<string, unknown>, message: string): void;
  /** Something that may need attention (no identity secret, a replaced contextId). */
  warn(fields: Record<string, unknown>, message: string): void;
  /** A failure. */
  error(fields: Record<string, unknown>, message: string): void;
}

const nothing = (): void => undefined;

/** The default: drops everything. */
export const silentLogger: Logger = { debug: nothing, info: nothing, warn: nothing, error: nothing };

/** The methods that tell a console (Node's, a browser's) from a structured logger such as pino. */
type ConsoleLike = Logger & { log: unknown; group: unknown; table: unknown };

function isConsole(logger: Logger): logger is ConsoleLike {
  const candidate = logger as Partial<ConsoleLike>;
  return typeof candidate.log === 'function' && typeof candidate.group === 'function' && typeof candidate.table === 'function';
}

/** One adapter per console, so "once per logger" (the missing-secret warning) stays once. */
const adapted = new WeakMap<Logger, Logger>();

/**
 * The logger to write to for `logger`. A console (`logger: console`) prints its arguments in order,
 * so the library's `(fields, message)` would read fields first; it gets the sentence first instead,
 * prefixed, and the fields after it, without those the sentence already names:
 * `a4h-a2a: cancelling the abandoned task { taskId: '…' }`. Any other logger (pino and its like)
 * gets the fields and message as they are, structured.
 */
export function readableLogger(logger: Logger): Logger {
  if (!isConsole(logger)) return logger;
  let readable = adapted.get(logger);
  if (readable === undefined) {
    const line =
      (write: (...args: unknown[]) => void) =>
      (fields: Record<string, unknown>, message: string): void => {
        const rest = Object.entries(fields).filter(([, value]) => !(typeof value === 'string' && message.includes(value)));
        if (rest.length === 0) write(`a4h-a2a: ${message}`);
        else write(`a4h-a2a: ${message}`, Object.fromEntries(rest));
      };
    const target = logger as unknown as Record<'debug' | 'info' | 'warn' | 'error', (...args: unknown[]) => void>;
    readable = {
      debug: line((...args) => target.debug(...args)),
      info: line((...args) => target.info(...args)),
      warn: line((...args) => target.warn(...args)),
      error: line((...args) => target.error(...args)),
    };
    adapted.set(logger, readable);
  }
  return readable;
}
