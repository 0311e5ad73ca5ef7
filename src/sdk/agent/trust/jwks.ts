import { finite, Invalid, list, object, optional, text } from '../../../validation.js';

/** One JSON Web Key (RFC 7517) as a JWKS lists it: `kty` and the key's members; only public ones are used. */
export interface Jwk {
  /** The key type, e.g. `EC`, `RSA`, `OKP`. */
  kty: string;
  /** The key id, which a signature's header names. */
  kid?: string;
  /** The algorithm the key is for, e.g. `ES256`. */
  alg?: string;
  /** What the key is for: `sig` for signatures. */
  use?: string;
  /** The operations the key is for, e.g. `verify`. */
  key_ops?: string[];
  /** Not in RFC 7517: when the key stops being good for verification, in seconds since the epoch (as JWT's `exp`). */
  exp?: number;
  /** The key type's own members (`crv`, `x`, `y`, `n`, `e`…). */
  [member: string]: unknown;
}

/** A JSON Web Key Set (RFC 7517 §5): the public keys a card's signature may be checked with. */
export interface Jwks {
  /** The keys. */
  keys: Jwk[];
}

/** A key the client trusts, as a signature is checked against it. */
export interface TrustedKey {
  kid: string | undefined;
  /** The key's public members only (a private key given by mistake is never used as one). */
  jwk: Jwk;
  /** When the key expires, in ms since the epoch (its JWK's `exp`). */
  expiresAt: number | undefined;
  /** The JWKS URL it came from; undefined for a key given inline. */
  jwksUrl: string | undefined;
}

/** The most keys read from one JWKS. */
export const MAX_KEYS = 100;

/** The public members of the asymmetric key types; `oct` (a shared secret) is never trusted. */
const PUBLIC_MEMBERS: Readonly<Record<string, readonly string[]>> = {
  EC: ['crv', 'x', 'y'],
  RSA: ['n', 'e'],
  OKP: ['crv', 'x'],
};
const COMMON = ['kty', 'kid', 'alg', 'use', 'key_ops'] as const;

const short = text(0, 2_000);
const jwk = object(
  {
    kty: text(1, 20),
    kid: optional(short),
    alg: optional(short),
    use: optional(short),
    key_ops: optional(list(short, 20)),
    exp: optional(finite),
  },
  true,
);
const jwks = object({ keys: list(jwk, MAX_KEYS) }, true);

/**
 * Reads a JWKS: the keys the client can verify with (EC, RSA and OKP keys, their public members
 * only; others are skipped), or throws an `Error` saying which field is wrong (never a key's value).
 */
export function readJwks(json: unknown, jwksUrl?: string): TrustedKey[] {
  let read: ReturnType<typeof jwks>;
  try {
    read = jwks(json, []);
  } catch (error) {
    if (!(error instanceof Invalid)) throw error;
    throw new Error(`not a JWKS: its field ${error.where('(the document)')} ${error.says}`);
  }
  return read.keys.flatMap((raw): TrustedKey[] => {
    // Own members only: a `kty` such as `constructor` names no key type.
    const members = Object.hasOwn(PUBLIC_MEMBERS, raw.kty) ? PUBLIC_MEMBERS[raw.kty] : undefined;
    if (members === undefined) return [];
    const jwk = {} as Jwk;
    for (const name of [...COMMON, ...members]) if (raw[name] !== undefined) jwk[name] = raw[name];
    return [{ kid: raw.kid, jwk, expiresAt: raw.exp === undefined ? undefined : raw.exp * 1000, jwksUrl }];
  });
}
