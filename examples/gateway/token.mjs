/**
 * A development identity provider for the gateway: an ES256 key made on first use in a folder of the
 * user's own under the OS temp directory, its JWKS beside it (what replicas trust by default), and
 * tokens signed with it. A deployment trusts its identity provider instead (`gateway.mjs --jwks URL
 * --issuer … --audience …`).
 *
 *     node examples/gateway/token.mjs <user> [--ttl SECONDS]    prints a token whose subject is <user>
 *
 *     <tmpdir>/a4h-gateway-issuer-<os user>/key.json    the private key (mode 0600)
 *     <tmpdir>/a4h-gateway-issuer-<os user>/jwks.json   its public half, as an identity provider publishes it
 */
import { randomUUID } from 'node:crypto';
import { link, lstat, mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { exampleArgs, usageError } from '../args.mjs';
import { SignJWT, calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK } from 'jose';
import { startedAs } from '../started-as.mjs';
import { isSafeId } from './request.mjs';

/** The development issuer's `iss`, and the audience its tokens are for. */
export const DEV_ISSUER = 'urn:a4h:gateway:dev-issuer';
export const DEV_AUDIENCE = 'a4h-gateway';
/** A token's lifetime unless told: an hour. */
const DEFAULT_TTL_SECONDS = 3600;

/** The development issuer's folder: the OS user's own, under the temp directory. */
export function devIssuerDir() {
  let user;
  try {
    user = userInfo().username;
  } catch {
    user = String(process.getuid?.() ?? 'user');
  }
  return join(tmpdir(), `a4h-gateway-issuer-${user.replace(/[^A-Za-z0-9._-]/g, '_') || 'user'}`);
}

/**
 * The development issuer in `dir`: its key made on first use (by whichever process comes first; the
 * others read it), its JWKS written beside it.
 * @param {string} [dir]
 * @returns {Promise<import('./token.d.mts').DevIssuer>}
 */
export async function devIssuer(dir = devIssuerDir()) {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const folder = await lstat(dir);
  const foreign = process.getuid !== undefined && folder.uid !== process.getuid();
  if (!folder.isDirectory() || foreign || (folder.mode & 0o077) !== 0) {
    throw new Error(`${dir} must be a folder of your own that no one else can read (mode 0700)`);
  }
  const keyFile = join(dir, 'key.json');
  const jwk = (await readKey(keyFile)) ?? (await makeKey(keyFile));
  const { d: _private, ...publicJwk } = jwk;
  const jwksFile = join(dir, 'jwks.json');
  const jwks = `${JSON.stringify({ keys: [publicJwk] }, null, 2)}\n`;
  if ((await readFile(jwksFile, 'utf8').catch(() => '')) !== jwks) {
    const partial = `${jwksFile}.${randomUUID()}`;
    await writeFile(partial, jwks, { mode: 0o644 });
    await rename(partial, jwksFile);
  }
  const key = await importJWK(jwk, 'ES256');
  return {
    dir,
    jwksFile,
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
    sign: (user, { ttlSeconds = DEFAULT_TTL_SECONDS } = {}) =>
      new SignJWT({})
        .setProtectedHeader({ alg: 'ES256', kid: jwk.kid, typ: 'JWT' })
        .setSubject(user)
        .setIssuer(DEV_ISSUER)
        .setAudience(DEV_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(Math.floor(Date.now() / 1000) + ttlSeconds)
        .setJti(randomUUID())
        .sign(key),
  };
}

/** The private JWK in `file`, or undefined when there is none yet. */
async function readKey(/** @type {string} */ file) {
  try {
    return JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    if (error?.code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Makes the key and links it into place; when another process was first, its key is the one. */
async function makeKey(/** @type {string} */ file) {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const made = { ...jwk, alg: 'ES256', use: 'sig', kid: await calculateJwkThumbprint(jwk) };
  const partial = `${file}.${randomUUID()}`;
  await writeFile(partial, JSON.stringify(made), { mode: 0o600 });
  try {
    await link(partial, file);
  } catch (error) {
    if (error?.code !== 'EEXIST') throw error;
  } finally {
    await unlink(partial);
  }
  return /** @type {Promise<any>} */ (readKey(file));
}

/** The command line: prints a token for the user named. */
async function main() {
  const usage =
    'Usage: node examples/gateway/token.mjs <user> [--ttl SECONDS]\n' +
    '  prints a token for <user> from the development issuer (its key and JWKS in ' +
    `${devIssuerDir()}), which replicas trust by default; --ttl at most 30 days (default ${DEFAULT_TTL_SECONDS})`;
  const { values, positionals } = exampleArgs(usage, { allowPositionals: true, options: { ttl: { type: 'string' } } });
  const [user] = positionals;
  const ttl = Number(values.ttl ?? DEFAULT_TTL_SECONDS);
  if (positionals.length !== 1 || !isSafeId(user, 256) || !Number.isInteger(ttl) || ttl < 1 || ttl > 30 * 86_400) {
    usageError(usage, 'token.mjs needs one user name (letters, digits, ._-), and --ttl from 1 to 30 days in seconds');
  }
  const issuer = await devIssuer();
  process.stdout.write(`${await issuer.sign(/** @type {string} */ (user), { ttlSeconds: ttl })}\n`);
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`token: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
