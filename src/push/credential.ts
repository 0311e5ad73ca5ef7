/**
 * The credential a push carries, derived from the identity secret like the contextId, never stored.
 *
 * A turn that asks an agent for push notifications gives it a token naming the thread (its
 * contextId) and when it was issued, with an HMAC over both:
 *
 *     token = "a4hp1." base64url(contextId) "." issuedAt (seconds, base 36) "." base64url(mac)
 *     mac   = HMAC-SHA256(key = identity secret,
 *                         msg = "a4h-push-v1" 0x00 u32be(len(contextId)) contextId u32be(issuedAt))
 *
 * Any replica that holds the secret checks a token without asking anyone; a token is good for its
 * thread only (the receiver refuses a push whose task is another thread's) and for `maxAgeMs` after it
 * was issued. The domain label keeps these MACs apart from the contextIds' (`a4h-context-v1`).
 * Web Crypto only, as the contextId's derivation: it runs wherever a client runs.
 */
import { A2AError } from '../errors.js';
import { secretBytes } from '../identity/context-id.js';

/** Domain-separation label at the start of every push MAC message (followed by one 0x00 byte). */
export const PUSH_TOKEN_DOMAIN = 'a4h-push-v1';

/** The token's version prefix. */
const PREFIX = 'a4hp1.';

/** The longest token read: a longer one is refused before any crypto. */
export const MAX_TOKEN_CHARS = 1024;

/** The longest contextId a token names (the turn's ids are bounded the same way). */
const MAX_CONTEXT_CHARS = 256;

/** How long a token is good for by default: a week (an agent's long task, and its late pushes). */
export const DEFAULT_PUSH_TOKEN_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

const utf8 = new TextEncoder();
const DOMAIN = utf8.encode(`${PUSH_TOKEN_DOMAIN}\0`);

/** Issues and checks push tokens with one deployment's secrets. */
export interface PushCredentials {
  /** A token naming `contextId`, issued now. */
  issue(contextId: string): Promise<string>;
  /** The contextId a token names, when it is well formed, signed with one of the secrets and not too old; else undefined. */
  verify(token: string): Promise<string | undefined>;
}

/** What {@link pushCredentials} takes. */
export interface PushCredentialOptions {
  /** The identity secret (at least 16 bytes), the one contextIds are derived with. */
  secret: string | Uint8Array;
  /** Secrets a rotation replaced, newest first: tokens they signed are still good until they are too old. */
  previousSecrets?: readonly (string | Uint8Array)[];
  /** How long a token is good for after it was issued; {@link DEFAULT_PUSH_TOKEN_MAX_AGE_MS} by default. */
  maxAgeMs?: number;
  /** The clock, in ms since the epoch (tests). */
  now?: () => number;
}

/** The push tokens of one deployment: issued with its secret, checked against it and the ones it replaced. */
export function pushCredentials(options: PushCredentialOptions): PushCredentials {
  const maxAgeMs = options.maxAgeMs ?? DEFAULT_PUSH_TOKEN_MAX_AGE_MS;
  if (!Number.isFinite(maxAgeMs) || maxAgeMs <= 0) {
    throw new A2AError({ kind: 'config', operation: 'options', message: 'push.maxAgeMs must be a positive number' });
  }
  const now = options.now ?? Date.now;
  const secrets = [options.secret, ...(options.previousSecrets ?? [])];
  for (const secret of secrets) secretBytes(secret).fill(0); // the contextId's rule, said at once: at least 16 bytes, well formed
  const keys = secrets.map(importKey);
  for (const key of keys) key.catch(() => undefined); // reported to each caller, never unhandled
  return {
    async issue(contextId) {
      checkContextId(contextId);
      const issuedAt = Math.floor(now() / 1000);
      const mac = new Uint8Array(await subtle().sign('HMAC', await keys[0]!, message(contextId, issuedAt)));
      return `${PREFIX}${base64url(utf8.encode(contextId))}.${issuedAt.toString(36)}.${base64url(mac)}`;
    },
    async verify(token) {
      const parsed = parse(token);
      if (parsed === undefined) return undefined;
      const age = now() - parsed.issuedAt * 1000;
      // A token from the future by more than a minute's clock skew is not one this deployment issued.
      if (age > maxAgeMs || age < -60_000) return undefined;
      const signed = message(parsed.contextId, parsed.issuedAt);
      for (const key of keys) {
        if (await subtle().verify('HMAC', await key, parsed.mac, signed)) return parsed.contextId;
      }
      return undefined;
    },
  };
}

interface ParsedToken {
  contextId: string;
  issuedAt: number;
  mac: Uint8Array<ArrayBuffer>;
}

/** A token's fields, or undefined for anything not shaped like one (no crypto runs on it). */
function parse(token: string): ParsedToken | undefined {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_CHARS || !token.startsWith(PREFIX)) return undefined;
  const fields = token.slice(PREFIX.length).split('.');
  if (fields.length !== 3) return undefined;
  const [context, issued, mac] = fields as [string, string, string];
  if (!/^[0-9a-z]{1,8}$/.test(issued)) return undefined;
  const contextBytes = fromBase64url(context);
  const macBytes = fromBase64url(mac);
  if (contextBytes === undefined || macBytes === undefined || macBytes.length !== 32) return undefined;
  let contextId: string;
  try {
    contextId = new TextDecoder('utf-8', { fatal: true }).decode(contextBytes);
  } catch {
    return undefined;
  }
  if (contextId === '' || contextId.length > MAX_CONTEXT_CHARS) return undefined;
  return { contextId, issuedAt: parseInt(issued, 36), mac: macBytes };
}

function checkContextId(contextId: string): void {
  if (typeof contextId !== 'string' || contextId === '' || contextId.length > MAX_CONTEXT_CHARS) {
    throw new A2AError({
      kind: 'input',
      operation: 'push-config',
      message: `a push token names a contextId of 1 to ${MAX_CONTEXT_CHARS} characters`,
    });
  }
}

/** The MAC input: the domain and its 0x00, the contextId as u32be length and UTF-8 bytes, the issue time as u32be. */
function message(contextId: string, issuedAt: number): Uint8Array<ArrayBuffer> {
  const context = utf8.encode(contextId);
  const out = new Uint8Array(DOMAIN.length + 4 + context.length + 4);
  const view = new DataView(out.buffer);
  out.set(DOMAIN);
  view.setUint32(DOMAIN.length, context.length);
  out.set(context, DOMAIN.length + 4);
  view.setUint32(DOMAIN.length + 4 + context.length, issuedAt >>> 0);
  return out;
}

async function importKey(secret: string | Uint8Array): Promise<CryptoKey> {
  const bytes = secretBytes(secret); // the contextId's rule: at least 16 bytes, well formed
  try {
    return await subtle().importKey('raw', bytes, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  } finally {
    bytes.fill(0);
  }
}

function subtle(): SubtleCrypto {
  const found = globalThis.crypto?.subtle;
  if (found === undefined)
    throw new A2AError({
      kind: 'config',
      operation: 'options',
      message: 'Web Crypto (crypto.subtle) is not available; push tokens need HMAC-SHA256',
    });
  return found;
}

function base64url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return undefined;
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4));
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}
