import { createInsecureFetch } from '../node/insecure-fetch.js';
import type { Io } from './io.js';

/** The fetch of `--insecure` (or `A2ACLI_INSECURE`): TLS certificates not verified. For development only. */
export function insecureFetch(): typeof fetch {
  return createInsecureFetch().fetch;
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
