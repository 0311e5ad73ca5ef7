import { secretBytes } from '../identity/context-id.js';
import { IDENTITY_SECRET_ENV } from '../node/create-a2a.js';

/**
 * Refuses a malformed `A4H_IDENTITY_SECRET` (shorter than 16 bytes, not well-formed Unicode) before
 * any command runs, `card` included (which derives nothing), so every command exits 2 on it. The
 * error is the library's `config` error, which never shows the secret. Unset or empty is fine here.
 */
export function checkIdentitySecret(env: NodeJS.ProcessEnv): void {
  const secret = env[IDENTITY_SECRET_ENV];
  if (secret === undefined || secret === '') return;
  secretBytes(secret).fill(0);
}
