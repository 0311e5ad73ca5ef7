/**
 * Stable, stateless A2A context ids for chat conversations.
 *
 * Every gateway replica and every release must derive the same id for the same
 * (secret, handle, conversation key), so the construction below is frozen:
 *
 *     mac     = HMAC-SHA256(key = secret bytes,
 *                           msg = "a4h-context-v1" || 0x00
 *                                 || u32be(len(handle)) || handle
 *                                 || u32be(len(conversationKey)) || conversationKey)
 *     id      = mac[0..16] with the RFC 9562 version nibble set to 8 and the variant bits to 10,
 *               written as a lowercase 8-4-4-4-12 UUID.
 *
 * Strings are UTF-8 encoded exactly as given (no normalisation, no trimming). The length
 * prefixes keep the fields apart, so ("ab", "c") and ("a", "bc") give different ids.
 *
 * Web Crypto only (`globalThis.crypto.subtle`): no Node built-ins, so it runs in browsers too.
 * The byte layout lives here once ({@link contextIdMessage}, {@link contextIdFromMac}); the
 * node:crypto deriver only swaps the HMAC.
 */
import { A2AError } from '../errors.js';

/** Domain-separation label at the start of every MAC message (followed by one 0x00 byte). */
export const CONTEXT_ID_DOMAIN = 'a4h-context-v1';

/** The shortest identity secret accepted, in bytes (UTF-8 bytes for a string secret). */
export const MIN_SECRET_BYTES = 16;

/** Lowercase UUID with version 8 and variant `10`. */
const CONTEXT_ID_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/**
 * A lone UTF-16 surrogate has no UTF-8 encoding; TextEncoder would silently turn it into
 * U+FFFD, so two different strings would give the same id. Such strings are refused instead.
 */
const LONE_SURROGATE = /\p{Cs}/u;

const utf8 = new TextEncoder();

/** The domain label and its 0x00, the start of every MAC message. */
const DOMAIN_PREFIX = utf8.encode(`${CONTEXT_ID_DOMAIN}\0`);

/** Two lowercase hex digits for each byte value. */
const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/**
 * Derives the context id of one conversation with one agent handle.
 *
 * @param secret - the deployment's identity secret, at least 16 bytes (a string is measured in UTF-8 bytes).
 * @param handle - the agent handle, e.g. `travel` (non-empty).
 * @param conversationKey - the chat platform's conversation key, e.g. `slack:T1:C2:1700000000.000100` (non-empty).
 * @returns a lowercase UUID (version 8, variant 10), the first 16 bytes of
 *   HMAC-SHA256(secret, "a4h-context-v1" 0x00 len32(handle) handle len32(key) key).
 * @throws A2AError `kind: 'config'` for an unusable secret, `kind: 'input'` for an unusable
 *   handle or key (the promise rejects before any crypto runs; messages never include the secret).
 */
export async function deriveContextId(secret: string | Uint8Array, handle: string, conversationKey: string): Promise<string> {
  const keyBytes = secretBytes(secret); // the secret is checked first
  let message: Uint8Array<ArrayBuffer>;
  try {
    message = contextIdMessage(handle, conversationKey);
  } catch (error) {
    keyBytes.fill(0);
    throw error;
  }
  return contextIdFromMac(new Uint8Array(await sign(await importBytes(keyBytes), message)));
}

/**
 * A deriver bound to one secret: the HMAC key is imported once (a non-extractable CryptoKey) and
 * reused for every thread, so a client pays the import once, not per turn. Same ids as
 * {@link deriveContextId}.
 */
export function contextIdDeriver(secret: string | Uint8Array): (handle: string, conversationKey: string) => Promise<string> {
  const key = importSecret(secret);
  key.catch(() => undefined); // reported to each caller below, never unhandled
  return async (handle, conversationKey) => {
    const message = contextIdMessage(handle, conversationKey);
    return contextIdFromMac(new Uint8Array(await sign(await key, message)));
  };
}

function subtleCrypto(): SubtleCrypto {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw configError('Web Crypto (crypto.subtle) is not available; context ids need HMAC-SHA256');
  return subtle;
}

function importSecret(secret: string | Uint8Array): Promise<CryptoKey> {
  try {
    return importBytes(secretBytes(secret));
  } catch (error) {
    return Promise.reject(error);
  }
}

async function importBytes(keyBytes: Uint8Array<ArrayBuffer>): Promise<CryptoKey> {
  try {
    return await subtleCrypto().importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  } finally {
    keyBytes.fill(0); // our private copy; the CryptoKey holds its own
  }
}

/**
 * The MAC input: the domain, 0x00, then the handle and the key, each as a u32be byte length and its
 * UTF-8 bytes. Checks both first (an `input` A2AError for a non-string, an empty string or a lone
 * surrogate). Written into `scratch` when it is large enough, else into a new array; either way the
 * result is a view of exactly the message bytes. A caller that hashes synchronously can pass the
 * same `scratch` every time and allocate nothing.
 */
export function contextIdMessage(handle: string, conversationKey: string, scratch?: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
  checkField('handle', handle);
  checkField('conversation key', conversationKey);
  // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair, 2 units, takes 4).
  const size = DOMAIN_PREFIX.length + 8 + 3 * (handle.length + conversationKey.length);
  const out = scratch !== undefined && scratch.length >= size ? scratch : new Uint8Array(size);
  out.set(DOMAIN_PREFIX);
  const end = writeField(out, writeField(out, DOMAIN_PREFIX.length, handle), conversationKey);
  return out.subarray(0, end);
}

function sign(key: CryptoKey, message: Uint8Array<ArrayBuffer>): Promise<ArrayBuffer> {
  return subtleCrypto().sign('HMAC', key, message);
}

/**
 * The first 16 bytes of a MAC as a lowercase 8-4-4-4-12 UUID with the version nibble set to 8 and
 * the variant bits to 10. The MAC itself is left as it is.
 */
export function contextIdFromMac(mac: Uint8Array): string {
  if (mac.length < 16) throw new RangeError(`a context id takes 16 MAC bytes (got ${mac.length})`);
  let id = '';
  for (let i = 0; i < 16; i++) {
    let byte = mac[i]!;
    if (i === 6)
      byte = (byte & 0x0f) | 0x80; // version 8
    else if (i === 8) byte = (byte & 0x3f) | 0x80; // variant 10
    if (i === 4 || i === 6 || i === 8 || i === 10) id += '-';
    id += HEX[byte]!;
  }
  return id;
}

/** True when `id` has the shape {@link deriveContextId} returns: a lowercase UUID, version 8, variant 10. */
export function isContextIdShape(id: string): boolean {
  return typeof id === 'string' && CONTEXT_ID_SHAPE.test(id);
}

/**
 * Checks an identity secret before anything derives with it (at a program's start, say): at least 16
 * bytes, well-formed Unicode. Throws a `config` {@link A2AError} that never includes the secret;
 * returns nothing and keeps nothing of it.
 */
export function checkIdentitySecret(secret: string | Uint8Array): void {
  secretBytes(secret).fill(0);
}

/**
 * Checks an identity secret (a string or bytes, at least 16 bytes, well-formed Unicode) and returns
 * a private copy of its bytes. Throws a `config` A2AError that never includes the secret.
 */
export function secretBytes(secret: string | Uint8Array): Uint8Array<ArrayBuffer> {
  let bytes: Uint8Array<ArrayBuffer>;
  if (typeof secret === 'string') {
    if (LONE_SURROGATE.test(secret)) throw configError('the identity secret must be well-formed Unicode (it has a lone surrogate)');
    bytes = utf8.encode(secret);
  } else if (secret instanceof Uint8Array) {
    bytes = new Uint8Array(secret);
  } else {
    throw configError('the identity secret must be a string or a Uint8Array');
  }
  if (bytes.length < MIN_SECRET_BYTES) {
    const length = bytes.length;
    bytes.fill(0);
    throw configError(
      `the identity secret must be at least ${MIN_SECRET_BYTES} bytes (got ${length}): a guessable contextId lets others join a conversation`,
    );
  }
  return bytes;
}

function checkField(name: string, value: unknown): void {
  if (typeof value !== 'string') throw inputError(`the ${name} must be a string (got ${value === null ? 'null' : typeof value})`);
  if (value.length === 0) throw inputError(`the ${name} must not be empty`);
  if (LONE_SURROGATE.test(value)) throw inputError(`the ${name} must be well-formed Unicode (it has a lone surrogate)`);
}

/** Writes `text` at `offset` as a u32be byte length and its UTF-8 bytes; returns the offset after it. */
function writeField(out: Uint8Array, offset: number, text: string): number {
  const length = utf8.encodeInto(text, out.subarray(offset + 4)).written;
  new DataView(out.buffer, out.byteOffset).setUint32(offset, length, false);
  return offset + 4 + length;
}

function configError(message: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message });
}

function inputError(message: string): A2AError {
  return new A2AError({ kind: 'input', message });
}
