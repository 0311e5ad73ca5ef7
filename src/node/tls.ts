import { createSecureContext } from 'node:tls';
import { A2AError } from '../errors.js';
import { parseScope, type UrlScope } from '../port/url-scope.js';

/** PEM text, as a string or the bytes of a file. */
export type Pem = string | Buffer;

/**
 * The TLS of one agent (mutual TLS): the client certificate the agent asks for, its private key, and
 * the CA its own certificate is checked with. `cert` and `key` go together; `ca` may come alone (an
 * agent whose certificate a private CA signed). PEM, as strings or Buffers (read the files yourself).
 */
export interface ClientTls {
  /** The client certificate (PEM), the chain after it when the agent needs the intermediates. */
  cert?: Pem;
  /** The certificate's private key (PEM). */
  key?: Pem;
  /** The key's passphrase, when it is encrypted. */
  passphrase?: string;
  /**
   * The CA certificates (PEM) the agent's certificate must chain to. Given, they replace Node's
   * trusted roots for this agent; without, the agent's certificate is checked as usual.
   */
  ca?: Pem | readonly Pem[];
}

/**
 * Mutual TLS per agent, keyed like `credentials`: an origin (`https://agent.example`) or a URL prefix
 * (`https://gateway.example/agents/billing/`); a request takes the entry whose key is the longest
 * prefix of its URL, so a certificate is presented to its own origin only.
 */
export type ClientTlsOption = Readonly<Record<string, ClientTls>>;

/** One entry, checked: where it applies and what the TLS connections there carry. */
export interface TlsEntry extends UrlScope {
  /** The option's key, as errors name it. */
  readonly key: string;
  readonly tls: ClientTls;
}

const FIELDS = new Set(['cert', 'key', 'passphrase', 'ca']);

/**
 * The entries of the `tls` option, checked when the client is made: a key that is no https origin or
 * prefix, an unknown field, a certificate without its key (or a key without its certificate), or PEM
 * Node cannot read or a key that does not match its certificate is a `config` error naming the key and
 * the problem, never the PEM or the passphrase.
 */
export function tlsEntries(option: ClientTlsOption | undefined): TlsEntry[] {
  if (option === undefined) return [];
  if (typeof option !== 'object' || option === null) throw configError('the tls option must be an object keyed by origin or URL prefix');
  return Object.entries(option).map(([key, tls]) => {
    const where = `tls[${JSON.stringify(key)}]`;
    const scope = parseScope(key);
    if ('problem' in scope) throw configError(`${where}: ${scope.problem}`);
    if (!scope.origin.startsWith('https:')) throw configError(`${where}: the key must be an https origin or URL prefix`);
    if (typeof tls !== 'object' || tls === null) throw configError(`${where} must be an object: { cert, key, ca }`);
    const unknown = Object.keys(tls).find((field) => !FIELDS.has(field));
    if (unknown !== undefined) throw configError(`${where}: unknown field ${JSON.stringify(unknown)} (cert, key, passphrase, ca)`);
    checkFields(where, tls);
    return { ...scope, key, tls };
  });
}

function checkFields(where: string, tls: ClientTls): void {
  if ((tls.cert === undefined) !== (tls.key === undefined)) throw configError(`${where}: cert and key go together`);
  if (tls.cert === undefined && tls.ca === undefined) throw configError(`${where}: give cert and key, or ca, or both`);
  if (tls.passphrase !== undefined && (typeof tls.passphrase !== 'string' || tls.key === undefined)) {
    throw configError(`${where}: passphrase is the key's, a string`);
  }
  for (const field of ['cert', 'key'] as const) {
    if (tls[field] !== undefined && !isPem(tls[field])) throw configError(`${where}.${field} must be PEM: a string or a Buffer`);
  }
  const cas = tls.ca === undefined ? [] : Array.isArray(tls.ca) ? tls.ca : [tls.ca];
  if (cas.some((ca) => !isPem(ca))) throw configError(`${where}.ca must be PEM: a string, a Buffer, or a list of them`);
  try {
    createSecureContext(secureOptions(tls));
  } catch (error) {
    // OpenSSL's reason (`no start line`, `bad decrypt`, `key values mismatch`) and never the PEM itself.
    throw configError(`${where}: the certificate, key or CA cannot be used (${reasonOf(error)})`);
  }
}

/** The entry's fields as node:tls takes them (undefined ones left out). */
export function secureOptions(tls: ClientTls): { cert?: Pem; key?: Pem; passphrase?: string; ca?: Pem | Pem[] } {
  return {
    ...(tls.cert === undefined ? {} : { cert: tls.cert }),
    ...(tls.key === undefined ? {} : { key: tls.key }),
    ...(tls.passphrase === undefined ? {} : { passphrase: tls.passphrase }),
    ...(tls.ca === undefined ? {} : { ca: Array.isArray(tls.ca) ? [...(tls.ca as readonly Pem[])] : (tls.ca as Pem) }),
  };
}

function isPem(value: unknown): value is Pem {
  return (typeof value === 'string' && value.trim() !== '') || (Buffer.isBuffer(value) && value.length > 0);
}

/** OpenSSL's reason, the last part of its message (`…:PEM routines::no start line` → `no start line`), or the error's code. */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  const reason = /::([^:\n]+)$/.exec(message)?.[1] ?? (error as { code?: unknown } | undefined)?.code;
  return typeof reason === 'string' ? reason.slice(0, 80) : 'unreadable';
}

function configError(message: string): A2AError {
  return new A2AError({ kind: 'config', operation: 'options', message });
}
