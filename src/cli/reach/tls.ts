import { readFile } from 'node:fs/promises';
import type { ClientTls, ClientTlsOption } from '../../node/index.js';
import { UsageError } from '../core/io.js';

/**
 * The flags of mutual TLS, as curl spells them: `--cert FILE` (the client certificate, PEM; a file
 * holding the key too may stand alone), `--key FILE`, `--cacert FILE` (the CA the agent's certificate
 * is checked with), and `--key-pass-env VAR` (an encrypted key's passphrase, from the environment).
 */
export const TLS_OPTIONS = {
  cert: { type: 'string' },
  key: { type: 'string' },
  'key-pass-env': { type: 'string' },
  cacert: { type: 'string' },
} as const;

/** What the flags gave, parsed. */
export interface TlsFlags {
  cert?: string | undefined;
  key?: string | undefined;
  'key-pass-env'?: string | undefined;
  cacert?: string | undefined;
}

/** The usage lines of the flags, for each command's help. */
export const TLS_USAGE = `--cert FILE and --key FILE give the client certificate and its key (PEM) an agent asks for
(mutual TLS; a --cert file holding the key too may stand alone), --key-pass-env VAR an encrypted
key's passphrase, --cacert FILE the CA the agent's certificate must chain to; all for the agent
URL's https origin only. An agent refusing the TLS handshake exits 4, saying why.`;

/** A PEM file's text; a file that cannot be read is a usage error naming the flag and the path, never its content. */
async function pemFile(flag: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new UsageError(`--${flag} ${path}: cannot read it${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}

/** The certificate and key of `--cert` (and `--key`): a key-less certificate, or an encrypted key without its passphrase, is a usage error. */
async function clientPair(certPath: string, keyPath: string | undefined, passphrase: boolean): Promise<{ cert: string; key: string }> {
  const cert = await pemFile('cert', certPath);
  const key = keyPath === undefined ? cert : await pemFile('key', keyPath);
  if (keyPath === undefined && !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key)) {
    throw new UsageError(`--cert ${certPath} holds no private key: give it with --key FILE`);
  }
  if (!passphrase && /-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(key)) {
    throw new UsageError(
      `the key of --${keyPath === undefined ? 'cert' : 'key'} is encrypted: give its passphrase with --key-pass-env VAR`,
    );
  }
  return { cert, key };
}

/**
 * The `tls` option the flags give for `agent`, keyed by its origin (so the certificate goes to that
 * origin only, the card fetch included). Undefined when no flag was given. A file that cannot be read,
 * a key without a certificate, a certificate without a key, an encrypted key without its passphrase,
 * an unset passphrase variable or an agent
 * that is not https is a usage error; the client checks the PEM itself (a `config` error).
 */
export async function tlsFrom(flags: TlsFlags, agent: string, env: NodeJS.ProcessEnv): Promise<ClientTlsOption | undefined> {
  const { cert: certPath, key: keyPath, cacert: caPath } = flags;
  const variable = flags['key-pass-env'];
  if (certPath === undefined && keyPath === undefined && caPath === undefined && variable === undefined) return undefined;
  if (keyPath !== undefined && certPath === undefined) throw new UsageError('--key needs the certificate it is the key of: --cert FILE');
  if (variable !== undefined && certPath === undefined)
    throw new UsageError('--key-pass-env is the passphrase of the --key (or --cert) file');
  let origin: string;
  try {
    origin = new URL(agent).origin;
  } catch {
    return undefined; // the client refuses the URL itself, with its own message
  }
  if (!origin.startsWith('https:')) throw new UsageError('--cert, --key and --cacert are for an https:// agent');
  const tls: ClientTls = certPath === undefined ? {} : await clientPair(certPath, keyPath, variable !== undefined);
  if (variable !== undefined) {
    const passphrase = env[variable];
    if (passphrase === undefined || passphrase === '') {
      throw new UsageError(`--key-pass-env ${variable}: that environment variable is not set or empty`);
    }
    tls.passphrase = passphrase;
  }
  if (caPath !== undefined) tls.ca = await pemFile('cacert', caPath);
  return { [origin]: tls };
}
