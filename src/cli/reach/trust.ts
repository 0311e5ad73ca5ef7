import { type CardSignature, type Jwks, readJwksFile, redactQuery, type TrustOption } from '../../node/index.js';
import { UsageError } from '../core/io.js';

/** The flags of signed cards: `--trust-jwks FILE|URL` (repeatable) and `--require-signed-card`. */
export const TRUST_OPTIONS = {
  'trust-jwks': { type: 'string', multiple: true },
  'require-signed-card': { type: 'boolean' },
} as const;

/** What the flags gave, parsed. */
export interface TrustFlags {
  'trust-jwks'?: string[] | undefined;
  'require-signed-card'?: boolean | undefined;
}

/** The usage lines of the flags, for each command's help. */
export const TRUST_USAGE = `--trust-jwks FILE|URL trusts the keys of a JWKS to sign agent cards (repeatable): a file is read,
a URL is fetched when a signature needs it and is the only place a signature's jku may point to.
--require-signed-card refuses the agent unless its card is signed by one of those keys (exit 1, a
card error saying why: no signature, unknown key, bad signature, expired key); nothing is sent.`;

/**
 * The `trust` option the flags give: each `--trust-jwks` file read as a JWKS, each URL a trusted
 * JWKS URL, and `--require-signed-card` for the agent. Undefined when no flag was given. A file that
 * cannot be read or holds no JWKS, or `--require-signed-card` without keys, is a usage error.
 */
export async function trustFrom(flags: TrustFlags): Promise<TrustOption | undefined> {
  const sources = flags['trust-jwks'] ?? [];
  const required = flags['require-signed-card'] === true;
  if (required && sources.length === 0) {
    throw new UsageError('--require-signed-card needs the keys to check the card with: --trust-jwks FILE|URL');
  }
  if (sources.length === 0) return undefined;
  const jwks: Jwks[] = [];
  const jwksUrls: string[] = [];
  for (const source of sources) {
    if (/^https?:\/\//i.test(source)) {
      jwksUrls.push(source);
      continue;
    }
    try {
      jwks.push(await readJwksFile(source));
    } catch (error) {
      throw new UsageError(`--trust-jwks: ${(error as Error).message}`);
    }
  }
  return {
    ...(jwks.length > 0 ? { jwks } : {}),
    ...(jwksUrls.length > 0 ? { jwksUrls } : {}),
    ...(required ? { requireSignedCard: true } : {}),
  };
}

/** The verdict on a card's signatures, as `a4h card` prints it. */
export function describeSignature(signature: CardSignature): string {
  switch (signature.state) {
    case 'verified':
      return `verified by ${signature.kid}${signature.jwksUrl ? ` (its key from ${redactQuery(signature.jwksUrl)})` : ''}`;
    case 'unsigned':
      return 'unsigned';
    case 'unchecked':
      return signature.detail ? `signed, not checked: ${signature.detail}` : 'signed, not checked (no trusted keys: --trust-jwks FILE|URL)';
    case 'invalid':
      return `invalid: ${signature.detail}`;
  }
}
