import { silentLogger, type Logger } from '../logger.js';
import { secretBytes } from './context-id.js';

/**
 * The random key of clients made without a secret. Process-wide on purpose: every such client in the
 * process derives the same contextId for a thread, so a thread keeps its conversation across clients
 * (a gateway that makes one per request) for as long as the process lives, and no longer.
 */
let processKey: Uint8Array | undefined;
/**
 * Loggers told already that there is no secret; a silent one is not counted, so the next real logger
 * still hears it. Process-wide on purpose, like the key it warns about: a logger shared by many
 * clients hears the warning once, not once per client. Weak, so it keeps no logger alive.
 */
const warned = new WeakSet<Logger>();

/** The warning's sentence: it names the setting, so it reads whole in any logger. */
export const NO_SECRET_WARNING =
  'No identity secret is set (A4H_IDENTITY_SECRET), so a random key is used for this process: conversations will not continue after a restart.';

/**
 * The warning's fields. Node's `console` prints the fields before the message; this object shows
 * there as `a4h-a2a:`, so `logger: console` prints one sentence. JSON loggers (pino) never see the
 * symbol, and the CLI's logger leaves out a field its message already names.
 */
const NO_SECRET_FIELDS: Record<string, unknown> = Object.defineProperty(
  { setting: 'A4H_IDENTITY_SECRET' },
  Symbol.for('nodejs.util.inspect.custom'),
  {
    value: () => 'a4h-a2a:',
    enumerable: false,
  },
);

/**
 * The identity secret to derive contextIds with. Given one, it is checked (at least 16 bytes: a
 * guessable contextId lets anyone who reaches the agent join someone else's conversation). Given
 * none, a random 32-byte key for this process. The secret never reaches a log line.
 */
export function identitySecret(secret: string | Uint8Array | undefined): string | Uint8Array {
  if (secret === undefined) {
    processKey ??= globalThis.crypto.getRandomValues(new Uint8Array(32));
    return processKey;
  }
  // The derivation's own check (type, at least 16 bytes, well-formed Unicode): one rule, one place.
  secretBytes(secret).fill(0);
  return secret;
}

/**
 * `derive`, telling `logger` once (per logger, even when an earlier client had no logger) that
 * conversations will not survive a restart, the first time it derives without a secret. A client
 * whose every turn carries its own contextId (a browser given them by its backend) derives
 * nothing and hears nothing.
 */
export function warnOnDerive<A extends unknown[], R>(
  secret: string | Uint8Array | undefined,
  logger: Logger,
  derive: (...args: A) => R,
): (...args: A) => R {
  if (secret !== undefined) return derive;
  return (...args) => {
    if (!warned.has(logger) && logger !== silentLogger) {
      warned.add(logger);
      logger.warn(NO_SECRET_FIELDS, NO_SECRET_WARNING);
    }
    return derive(...args);
  };
}
