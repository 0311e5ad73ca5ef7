/**
 * The logger shape the library writes to: pino's and console's methods both fit
 * (`logger.warn({ taskId }, 'message')`). The library is silent unless given one.
 */
export interface Logger {
  debug(fields: Record<string, unknown>, message: string): void;
  info(fields: Record<string, unknown>, message: string): void;
  warn(fields: Record<string, unknown>, message: string): void;
  error(fields: Record<string, unknown>, message: string): void;
}

const nothing = (): void => undefined;

/** The default: drops everything. */
export const silentLogger: Logger = { debug: nothing, info: nothing, warn: nothing, error: nothing };
