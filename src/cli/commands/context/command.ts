import { deriveContextId, IDENTITY_SECRET_ENV, PREVIOUS_IDENTITY_SECRETS_ENV, previousSecretsFromEnv } from '../../../node/index.js';
import { defineCommand } from '../../core/command.js';
import { UsageError } from '../../core/io.js';
import { COMMON_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';

/** The flags `a4h context` takes. */
export const CONTEXT_OPTIONS = { ...OUTPUT_OPTIONS, ...COMMON_OPTIONS } as const;

/** `a4h context`: the derived contextId of a thread. */
export const context = defineCommand({
  name: 'context',
  usage: `Usage: a4h context <handle> <key> [-o text|json]

Prints the contextId a thread derives to, from A4H_IDENTITY_SECRET: the same on every replica and
release that shares the secret. For operators checking continuity. With A4H_PREVIOUS_IDENTITY_SECRETS
(comma-separated, newest first: the secrets a rotation replaced), each one's contextId follows on its
own line as "previous <contextId>": where a thread's conversation may still be. -o json prints one
JSON object: {"handle","key","contextId","previous":[…]}. --verbose shows an error's causes.`,
  options: CONTEXT_OPTIONS,
  async run({ positionals, io, mode }) {
    if (positionals.length !== 2) throw new UsageError('context needs a handle and a key');
    const secret = io.env[IDENTITY_SECRET_ENV];
    if (secret === undefined || secret === '') {
      throw new UsageError(`${IDENTITY_SECRET_ENV} is not set: without it there is no stable contextId to show`);
    }
    const [handle, key] = [positionals[0]!, positionals[1]!];
    const contextId = await deriveContextId(secret, handle, key);
    const previous: string[] = [];
    for (const old of previousSecretsFromEnv(io.env[PREVIOUS_IDENTITY_SECRETS_ENV])) previous.push(await deriveContextId(old, handle, key));
    if (mode.format === 'json') io.out.write(`${JSON.stringify({ handle, key, contextId, previous })}\n`);
    else io.out.write(`${[contextId, ...previous.map((id) => `previous ${id}`)].join('\n')}\n`);
    return 0;
  },
});
