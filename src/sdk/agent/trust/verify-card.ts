import { base64url, decodeProtectedHeader, errors, flattenedVerify, type JWSHeaderParameters } from 'jose';
import type { CardSignature, SignatureProblem } from '../../../port/card.js';
import { signedPayload } from './canonical.js';
import type { TrustedKey } from './jwks.js';
import { isObject } from '../../../validation.js';

/** Why one signature did not verify, in words, with the error behind it when there was one. */
export interface SignatureFailure {
  reason: SignatureProblem;
  detail: string;
  cause?: unknown;
}

/** The trusted keys with a `kid` (looked up inline, at the signature's `jku` when trusted, at the trusted URLs), or why there are none. */
export type KeyLookup = (kid: string, jku: string | undefined, signal: AbortSignal) => Promise<{ keys: TrustedKey[] } | SignatureFailure>;

/** The verdict, and the error behind an `invalid` one (a JWKS fetch that failed), for the cause of a `card` error. */
export interface CardVerdict {
  verdict: CardSignature;
  cause?: unknown;
}

/** The JWS algorithms accepted: asymmetric ones only (a card is checked with a public key, never a shared secret). */
export const ACCEPTED_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA', 'Ed25519'];
const ACCEPTED: ReadonlySet<string> = new Set(ACCEPTED_ALGORITHMS);

/** The most signatures looked at on one card (key rotation needs two or three). */
export const MAX_SIGNATURES = 10;

/** How far a signature got before it failed: the verdict names the one that came closest. */
const RANK: Readonly<Record<SignatureProblem, number>> = {
  malformed: 0,
  'unknown-key': 1,
  'untrusted-jku': 1,
  'keys-unavailable': 2,
  'expired-key': 3,
  'bad-signature': 4,
};

/** A value from the card, quoted and bounded for a message. */
const quoted = (value: string): string => JSON.stringify(value.length > 100 ? `${value.slice(0, 100)}…` : value);

/**
 * Checks a card's signatures as the SDK's `verifyAgentCardSignature` does (the same canonical
 * payload, the same JWS check, `kid`, `typ` and `alg` required in the protected header), but says
 * which key verified and, when none did, why: the card is verified by the first signature that
 * verifies with a trusted, unexpired key; when the closest failure is keys that could not be had, the
 * card is `unchecked` (nothing says it is wrong). `now` is in ms since the epoch.
 */
export async function verifyCard(
  card: Record<string, unknown>,
  shape: '1.0' | '0.3',
  lookup: KeyLookup,
  now: number,
  signal: AbortSignal,
): Promise<CardVerdict> {
  const signatures = card['signatures'];
  if (!Array.isArray(signatures) || signatures.length === 0) return { verdict: { state: 'unsigned' } };
  let payload: string;
  try {
    payload = base64url.encode(signedPayload(card, shape));
  } catch (cause) {
    return failed({ reason: 'malformed', detail: 'malformed: the card could not be put in canonical form', cause });
  }
  let closest: SignatureFailure | undefined;
  for (const entry of signatures.slice(0, MAX_SIGNATURES)) {
    const result = await checkOne(entry, payload, lookup, now, signal);
    if ('kid' in result) return { verdict: { state: 'verified', kid: result.kid, ...(result.jwksUrl ? { jwksUrl: result.jwksUrl } : {}) } };
    if (closest === undefined || RANK[result.reason] > RANK[closest.reason]) closest = result;
  }
  return failed(closest!);
}

/** The verdict of the failure that came closest: keys that could not be had leave the card `unchecked`, any other failure `invalid`. */
function failed(failure: SignatureFailure): CardVerdict {
  const { reason, detail } = failure;
  return {
    verdict: reason === 'keys-unavailable' ? { state: 'unchecked', reason, detail } : { state: 'invalid', reason, detail },
    ...(failure.cause ? { cause: failure.cause } : {}),
  };
}

/** One signature: the key that verified it, or why none did. */
async function checkOne(
  entry: unknown,
  payload: string,
  lookup: KeyLookup,
  now: number,
  signal: AbortSignal,
): Promise<{ kid: string; jwksUrl: string | undefined } | SignatureFailure> {
  const jws = entry as { protected?: unknown; signature?: unknown; header?: unknown } | null;
  if (typeof jws !== 'object' || jws === null || typeof jws.protected !== 'string' || typeof jws.signature !== 'string') {
    return { reason: 'malformed', detail: 'malformed: a signature without a protected header or a signature value' };
  }
  let header: JWSHeaderParameters;
  try {
    header = decodeProtectedHeader({ protected: jws.protected, signature: jws.signature }) as JWSHeaderParameters;
  } catch (cause) {
    return { reason: 'malformed', detail: 'malformed: a protected header that is not base64url-encoded JSON', cause };
  }
  const { kid, alg, typ, jku } = header;
  if (typeof kid !== 'string' || typeof alg !== 'string' || typeof typ !== 'string' || kid === '' || alg === '') {
    return { reason: 'malformed', detail: 'malformed: a protected header without kid, typ or alg' };
  }
  if (!ACCEPTED.has(alg))
    return { reason: 'bad-signature', detail: `bad signature: the algorithm ${quoted(alg)} is not accepted (key ${quoted(kid)})` };
  const exp = (header as { exp?: unknown }).exp;
  if (typeof exp === 'number' && exp * 1000 <= now) {
    return {
      reason: 'expired-key',
      detail: `expired key: the signature by key ${quoted(kid)} expired at ${isoDate(exp * 1000)} (its exp)`,
    };
  }
  const found = await lookup(kid, typeof jku === 'string' ? jku : undefined, signal);
  if (!('keys' in found)) return found;
  const fitting = found.keys.filter((key) => fits(key, alg));
  if (fitting.length === 0) return { reason: 'bad-signature', detail: `bad signature: key ${quoted(kid)} is not a ${alg} signing key` };
  const live = fitting.filter((key) => key.expiresAt === undefined || key.expiresAt > now);
  if (live.length === 0) {
    return { reason: 'expired-key', detail: `expired key: key ${quoted(kid)} expired at ${isoDate(fitting[0]!.expiresAt!)}` };
  }
  let failure: SignatureFailure | undefined;
  for (const key of live) {
    try {
      await flattenedVerify(
        { payload, protected: jws.protected, signature: jws.signature, ...(isObject(jws.header) ? { header: jws.header } : {}) },
        key.jwk,
        { algorithms: [alg] },
      );
      return { kid, jwksUrl: key.jwksUrl };
    } catch (cause) {
      failure ??=
        cause instanceof errors.JWSSignatureVerificationFailed
          ? {
              reason: 'bad-signature',
              detail: `bad signature: the card does not match its signature by key ${quoted(kid)} (changed after it was signed?)`,
            }
          : {
              reason: 'bad-signature',
              detail: `bad signature: key ${quoted(kid)} could not check it (${(cause as Error).message})`,
              cause,
            };
    }
  }
  return failure!;
}

/** A key that may check a signature of `alg`: its own `alg`, `use` and `key_ops`, when it names them, agree. */
function fits(key: TrustedKey, alg: string): boolean {
  const { jwk } = key;
  if (jwk.alg !== undefined && jwk.alg !== alg) return false;
  if (jwk.use !== undefined && jwk.use !== 'sig') return false;
  return jwk.key_ops === undefined || jwk.key_ops.includes('verify');
}

function isoDate(ms: number): string {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString();
}
