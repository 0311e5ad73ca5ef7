import { silentLogger, type Logger } from '../logger.js';
import { secretBytes } from './context-id.js';

let processKey: Uint8Array | undefined;
/** Loggers told already; a silent one is not counted, so the next real logger still hears it. */
const warned = new WeakSet<Logger>();

/**
 * The identity secret to derive contextIds with. Given one, it is checked (at least 16 bytes: a
 * guessable contextId lets anyone who reaches the agent join someone else's conversation). Given
 * none, a random 32-byte key for this process is used, and each logger hears once that
 * conversations will not survive a restart (even when an earlier client had no logger). The secret never reaches a log line.
 */
export function identitySecret(secret: string | Uint8Array | undefined, logger: Logger): string | Uint8Array {
  if (secret === undefined) {
    if (!warned.has(logger) && logger !== silentLogger) {
      warned.add(logger);
      logger.warn(
        { setting: 'A4H_IDENTITY_SECRET' },
        'no identity secret set: using a random key for this process, so conversations will not continue after a restart',
      );
    }
    processKey ??= globalThis.crypto.getRandomValues(new Uint8Array(32));
    return processKey;
  }
  // The derivation's own check (type, at least 16 bytes, well-formed Unicode): one rule, one place.
  secretBytes(secret).fill(0);
  return secret;
}
