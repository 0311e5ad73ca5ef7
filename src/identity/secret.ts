import { A2AError } from '../errors.js';
import type { Logger } from '../logger.js';

/** The shortest identity secret accepted, in bytes. */
export const MIN_SECRET_BYTES = 16;

let processKey: Uint8Array | undefined;
let warned = false;

/**
 * The identity secret to derive contextIds with. Given one, it is checked (at least 16 bytes: a
 * guessable contextId lets anyone who reaches the agent join someone else's conversation). Given
 * none, a random 32-byte key for this process is used, and the logger hears one warning per
 * process that conversations will not survive a restart. The secret never reaches a log line.
 */
export function identitySecret(secret: string | Uint8Array | undefined, logger: Logger): string | Uint8Array {
  if (secret === undefined) {
    if (!warned) {
      warned = true;
      logger.warn(
        { setting: 'A4H_IDENTITY_SECRET' },
        'no identity secret set: using a random key for this process, so conversations will not continue after a restart',
      );
    }
    processKey ??= globalThis.crypto.getRandomValues(new Uint8Array(32));
    return processKey;
  }
  const length = typeof secret === 'string' ? new TextEncoder().encode(secret).length : secret instanceof Uint8Array ? secret.length : -1;
  if (length < 0) {
    throw new A2AError({ kind: 'config', operation: 'options', message: 'the identity secret must be a string or a Uint8Array' });
  }
  if (length < MIN_SECRET_BYTES) {
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: `the identity secret must be at least ${MIN_SECRET_BYTES} bytes (got ${length}): a guessable contextId lets others join a conversation`,
    });
  }
  return secret;
}
