import {
  checkIdentitySecret as check,
  IDENTITY_SECRET_ENV,
  PREVIOUS_IDENTITY_SECRETS_ENV,
  previousSecretsFromEnv,
} from '../../node/index.js';

/**
 * Refuses a malformed `A4H_IDENTITY_SECRET` or `A4H_PREVIOUS_IDENTITY_SECRETS` entry (shorter than 16 bytes, not well-formed Unicode) before
 * any command runs, `card` included (which derives nothing), so every command exits 2 on it. The
 * error is the library's `config` error, which never shows the secret. Unset or empty is fine here.
 */
export function checkIdentitySecret(env: NodeJS.ProcessEnv): void {
  const secret = env[IDENTITY_SECRET_ENV];
  if (secret !== undefined && secret !== '') check(secret);
  for (const previous of previousSecretsFromEnv(env[PREVIOUS_IDENTITY_SECRETS_ENV])) check(previous);
}
