import { createNodeFetch } from '../../node/index.js';
import type { Io } from '../core/io.js';

/**
 * The fetch of `--insecure` (or `A2ACLI_INSECURE`): TLS certificates not verified. For development only.
 * Its idle connections close after a second: a command's pool is not closed, and must not keep it alive.
 */
export function insecureFetch(): typeof fetch {
  return createNodeFetch({ verifyCertificates: false, keepAliveTimeoutMs: 1_000 }).fetch;
}

/**
 * The warning `--insecure` always prints on stderr (never silent, whatever the verbosity), louder when
 * credentials go over the unverified connection.
 */
export function warnInsecure(io: Io, agent: string, withCredentials: boolean): void {
  const what = withCredentials
    ? 'the credentials sent to it can be read by anyone who can intercept the connection'
    : 'anyone who can intercept the connection can impersonate it';
  io.err.write(
    `${io.style.dim('a4h:')} ${io.style.red('WARNING:')} --insecure: TLS certificate verification is OFF for ${originOf(agent)}: ${what}. Use it for development only.\n`,
  );
}

function originOf(agent: string): string {
  try {
    return new URL(agent).origin;
  } catch {
    return agent;
  }
}
