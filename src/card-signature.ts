/**
 * The verdict on a card's signatures, a type both the card summary (`port/card.ts`) and the
 * errors (`errors.ts`) carry; it lives below both.
 */

/**
 * What the client found of an agent card's signatures (A2A §8.4: JWS over the RFC 8785 canonical card):
 *
 * - `verified`: a signature verified with a trusted key, `kid`; `jwksUrl` when that key came from a
 *   trusted JWKS URL (absent for a key given inline);
 * - `unsigned`: the card carries no signature;
 * - `unchecked`: the card is signed, but it was not checked: no keys are trusted (no `trust` option; no
 *   `reason`), or the keys it needs could not be had in time (`reason` `keys-unavailable`: a trusted JWKS
 *   URL failed, redirected to another origin, or did not answer; `detail` in words);
 * - `invalid`: no signature verified; `reason` says why (for the one that came closest), `detail` in words.
 */
export type CardSignature =
  | { state: 'verified'; kid: string; jwksUrl?: string }
  | { state: 'unsigned' }
  | { state: 'unchecked'; reason?: Extract<SignatureProblem, 'keys-unavailable'>; detail?: string }
  | { state: 'invalid'; reason: SignatureProblem; detail: string };

/**
 * Why a card's signature did not verify:
 *
 * - `unknown-key`: no trusted key has the signature's `kid`;
 * - `untrusted-jku`: the signature points to a JWKS (`jku`) that is not a trusted JWKS URL, and no trusted key has its `kid`;
 * - `keys-unavailable`: a trusted JWKS URL could not be fetched or read (the verdict is then `unchecked`, not `invalid`);
 * - `expired-key`: the key's `exp` (in its JWK), or the signature's own `exp` (in its protected header), has passed;
 * - `bad-signature`: the key is trusted but the signature does not match the card (changed after signing), or its algorithm is not accepted;
 * - `malformed`: the signature is not a JWS this client can read (its protected header is not JSON, or lacks `alg`, `kid` or `typ`).
 */
export type SignatureProblem = 'unknown-key' | 'untrusted-jku' | 'keys-unavailable' | 'expired-key' | 'bad-signature' | 'malformed';
