import { Agent } from 'undici';
import type { NodeFetch } from './fetch.js';
import { undiciFetchOn } from './undici-fetch.js';

/**
 * A fetch that does not verify TLS certificates, for the command's `--insecure` (development against
 * an agent with a self-signed certificate). Not exported by the package: a program that needs it
 * builds its own, knowingly. Timeouts as the Node client's own.
 */
export function createInsecureFetch(): NodeFetch {
  const dispatcher = new Agent({
    connect: { rejectUnauthorized: false, timeout: 10_000 },
    headersTimeout: 600_000,
    bodyTimeout: 900_000,
    keepAliveTimeout: 1_000,
  });
  return { fetch: undiciFetchOn(() => dispatcher), close: () => dispatcher.close() };
}
