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
