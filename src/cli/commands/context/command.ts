import { deriveContextId, IDENTITY_SECRET_ENV, PREVIOUS_IDENTITY_SECRETS_ENV, previousSecretsFromEnv } from '../../../node/index.js';
import { isBadInput, reportError } from '../../core/errors.js';
import { UsageError, type Io } from '../../core/io.js';
import { parse } from '../../core/options.js';
import { COMMON_OPTIONS, OUTPUT_OPTIONS } from '../../core/flags.js';
import { outputFormat } from '../../output/output.js';

export const CONTEXT_USAGE = `Usage: a4h context <handle> <key> [-o text|json]

Prints the contextId a thread derives to, from A4H_IDENTITY_SECRET: the same on every replica and
release that shares the secret. For operators checking continuity. With A4H_PREVIOUS_IDENTITY_SECRETS
(comma-separated, newest first: the secrets a rotation replaced), each one's contextId follows on its
own line as "previous <contextId>": where a thread's conversation may still be. -o json prints one
JSON object: {"handle","key","contextId","previous":[…]}. --verbose shows an error's causes.`;

/** The flags `a4h context` takes. */
export const CONTEXT_OPTIONS = { ...OUTPUT_OPTIONS, ...COMMON_OPTIONS } as const;

/** `a4h context`: the derived contextId of a thread. */
export async function context(args: string[], io: Io): Promise<number> {
  const { values, positionals } = parse(args, CONTEXT_OPTIONS);
  if (values.help) {
    io.out.write(`${CONTEXT_USAGE}\n`);
    return 0;
  }
  if (positionals.length !== 2) throw new UsageError('context needs a handle and a key');
  const format = outputFormat(values.output);
  const secret = io.env[IDENTITY_SECRET_ENV];
  if (secret === undefined || secret === '') {
    throw new UsageError(`${IDENTITY_SECRET_ENV} is not set: without it there is no stable contextId to show`);
  }
  try {
    const [handle, key] = [positionals[0]!, positionals[1]!];
    const contextId = await deriveContextId(secret, handle, key);
    const previous: string[] = [];
    for (const old of previousSecretsFromEnv(io.env[PREVIOUS_IDENTITY_SECRETS_ENV])) previous.push(await deriveContextId(old, handle, key));
    if (format === 'json') io.out.write(`${JSON.stringify({ handle, key, contextId, previous })}\n`);
    else io.out.write(`${[contextId, ...previous.map((id) => `previous ${id}`)].join('\n')}\n`);
    return 0;
  } catch (error) {
    reportError(io, error, values.verbose === true);
    return isBadInput(error) ? 2 : 1;
  }
}
