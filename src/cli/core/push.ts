import { randomBytes } from 'node:crypto';
import { IDENTITY_SECRET_ENV, PREVIOUS_IDENTITY_SECRETS_ENV, previousSecretsFromEnv } from '../../node/index.js';
import { UsageError } from './io.js';

/*
 * What the push flags share (`task subscribe --push`, `send --push-url`): the secret a push credential
 * is derived from, and the URL an agent posts to.
 */

/** The secrets a push credential is signed and checked with, and whether they are the person's own or made for this run. */
export interface PushSecrets {
  secret: string;
  previousSecrets: string[];
  /** The secret was made for this run (no `A4H_IDENTITY_SECRET`): only this process can check its credentials. */
  ephemeral: boolean;
}

/**
 * The identity secret (`A4H_IDENTITY_SECRET`, and the ones `A4H_PREVIOUS_IDENTITY_SECRETS` names) the
 * push credentials derive from; without it, a random one for this run when `ephemeralAllowed` (a
 * receiver that only this process runs), else undefined.
 */
export function pushSecrets(env: NodeJS.ProcessEnv, ephemeralAllowed: boolean): PushSecrets | undefined {
  const previousSecrets = previousSecretsFromEnv(env[PREVIOUS_IDENTITY_SECRETS_ENV]);
  const secret = env[IDENTITY_SECRET_ENV];
  if (secret !== undefined && secret !== '') return { secret, previousSecrets, ephemeral: false };
  if (!ephemeralAllowed) return undefined;
  return { secret: randomBytes(32).toString('base64url'), previousSecrets, ephemeral: true };
}

/** `--push-url URL` checked: an http(s) URL, the address agents post to. */
export function pushUrlOf(value: string | undefined, flag = '--push-url'): string | undefined {
  if (value === undefined) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
  } catch {
    // said below
  }
  throw new UsageError(`${flag} takes the http(s) URL the agent posts to, not "${value}"`);
}
