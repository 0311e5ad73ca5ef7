/**
 * Who is asking: every request to a thread carries `Authorization: Bearer <JWT>`, verified with
 * `jose` against the keys an identity provider publishes (a JWKS file, or its URL: fetched, cached,
 * fetched again for a key it does not know), its issuer and audience checked. The token's `sub` is
 * the user; the gateway derives the user's threads from it, so a thread is its user's own.
 *
 * No token, a malformed, forged, expired or foreign one: a 401 (`WWW-Authenticate: Bearer`) with a
 * JSON reason. Keys that cannot be fetched: a 503 (the token could not be checked, not refused).
 */
import { readFile } from 'node:fs/promises';
import { createLocalJWKSet, createRemoteJWKSet, errors, jwtVerify } from 'jose';
import { isSafeId, Refusal } from './request.mjs';

/** Signature algorithms accepted: asymmetric only (a JWKS holds public keys; `none` and HMAC never). */
const ALGORITHMS = ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'];
/** Longest token read (bytes of the header value). */
const MAX_TOKEN = 8 * 1024;
/** Longest user id (`sub`) accepted. */
const MAX_USER = 256;
/** Clock skew tolerated between the identity provider and the replica. */
const CLOCK_TOLERANCE_S = 5;

/**
 * A verifier for `options`: resolves the user of an `Authorization` header, or throws a 401 or 503
 * {@link Refusal}.
 * @param {import('./auth.d.mts').AuthOptions} options
 * @returns {Promise<(authorization: string | undefined) => Promise<string>>}
 */
export async function tokenVerifier({ jwks, issuer, audience }) {
  if (!jwks || !issuer || !audience) throw new Error('tokens are verified against a JWKS, an issuer and an audience: all three are needed');
  const keys = /^https?:\/\//i.test(jwks)
    ? createRemoteJWKSet(new URL(jwks), { timeoutDuration: 2_000, cooldownDuration: 30_000, cacheMaxAge: 600_000 })
    : createLocalJWKSet(JSON.parse(await readFile(jwks, 'utf8')));
  return async (authorization) => {
    const token = bearerOf(authorization);
    let payload;
    try {
      ({ payload } = await jwtVerify(token, keys, {
        issuer,
        audience,
        algorithms: ALGORITHMS,
        requiredClaims: ['sub', 'exp'],
        clockTolerance: CLOCK_TOLERANCE_S,
      }));
    } catch (error) {
      throw refusalOf(error);
    }
    if (!isSafeId(payload.sub, MAX_USER)) throw unauthorized('the token names no usable user', 'invalid_token');
    return /** @type {string} */ (payload.sub);
  };
}

/** The token of a `Bearer` header; a 401 when there is none. */
function bearerOf(/** @type {string | undefined} */ header) {
  const match = typeof header === 'string' && header.length <= MAX_TOKEN ? /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header) : null;
  if (match === null) {
    throw header === undefined
      ? unauthorized('a bearer token is required')
      : unauthorized('the Authorization header is not a bearer token', 'invalid_request');
  }
  return /** @type {string} */ (match[1]);
}

/** What a failed verification answers: 401 for the token's fault, 503 when the keys could not be had. */
function refusalOf(/** @type {unknown} */ error) {
  if (error instanceof errors.JWTExpired) return unauthorized('the token has expired', 'invalid_token');
  if (error instanceof errors.JWKSTimeout || !(error instanceof errors.JOSEError)) {
    return new Refusal(503, 'the identity provider cannot be reached to check the token; try again', { 'Retry-After': '5' });
  }
  return unauthorized('the token is not valid here', 'invalid_token');
}

/** A 401 with RFC 6750's challenge (an `error` code once a token was sent). */
function unauthorized(/** @type {string} */ message, /** @type {string | undefined} */ code = undefined) {
  return new Refusal(401, message, { 'WWW-Authenticate': `Bearer realm="a4h-gateway"${code ? `, error="${code}"` : ''}` });
}
