import { Agent, fetch as undiciFetch } from 'undici';
import type { Io } from './io.js';

/**
 * The fetch of `--insecure` (or `A2ACLI_INSECURE`): undici's, on a pool that does not verify TLS
 * certificates, with the timeouts of the client's own. For development against a self-signed agent only.
 */
export function insecureFetch(): typeof fetch {
  const dispatcher = new Agent({
    connect: { rejectUnauthorized: false, timeout: 10_000 },
    headersTimeout: 600_000,
    bodyTimeout: 900_000,
    keepAliveTimeout: 1_000,
  });
  return ((input: Parameters<typeof fetch>[0], init?: RequestInit) =>
    undiciFetch(input as Parameters<typeof undiciFetch>[0], {
      ...(init as Parameters<typeof undiciFetch>[1]),
      dispatcher,
    })) as unknown as typeof fetch;
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
