/**
 * Why a request never got an answer, in a few words: found in an error's cause chain (fetch wraps
 * the real error as `TypeError: fetch failed` with a `cause`), so an error's message says it (and
 * the command line's one-line error, without `--verbose`). Pure: in a browser, where fetch names
 * no cause, it finds none.
 */

/** Node's and undici's error codes, by what they mean to a person. */
const BY_CODE: Record<string, string> = {
  ECONNREFUSED: 'connection refused: nothing listens on that port',
  ENOTFOUND: 'unknown host',
  EAI_AGAIN: 'unknown host (the name lookup failed; no DNS?)',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'the connection timed out',
  UND_ERR_CONNECT_TIMEOUT: 'the connection timed out',
  UND_ERR_SOCKET: 'the connection closed unexpectedly',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'certificate not trusted: it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'certificate not trusted: a self-signed certificate in its chain',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'certificate not trusted: its issuer is unknown',
  UNABLE_TO_GET_ISSUER_CERT: 'certificate not trusted: its issuer is unknown',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'certificate not trusted: its issuer is unknown',
  CERT_HAS_EXPIRED: 'certificate expired',
  CERT_NOT_YET_VALID: 'certificate not yet valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'certificate is for another host name',
  EPROTO: 'TLS handshake failed (is it an http:// server?)',
  ERR_SSL_WRONG_VERSION_NUMBER: 'TLS handshake failed (is it an http:// server?)',
};

/** The causes of `error`, itself first, following `cause` and an AggregateError's `errors` (bounded). */
function chain(error: unknown): unknown[] {
  const seen: unknown[] = [];
  const queue = [error];
  while (queue.length > 0 && seen.length < 16) {
    const next = queue.shift();
    if (next === undefined || next === null || seen.includes(next)) continue;
    seen.push(next);
    if (typeof next !== 'object') continue;
    queue.push((next as { cause?: unknown }).cause);
    const errors = (next as { errors?: unknown }).errors;
    if (Array.isArray(errors)) queue.push(...errors);
  }
  return seen;
}

/** A short phrase for the network cause of `error`, or undefined when its chain names none. */
export function networkCause(error: unknown): string | undefined {
  for (const cause of chain(error)) {
    if (typeof cause !== 'object' || cause === null) continue;
    const { code, message } = cause as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (BY_CODE[code]) return BY_CODE[code];
      if (/^(ERR_TLS_|CERT_|ERR_SSL_)/.test(code)) return `certificate or TLS problem (${code})`;
    }
    if (typeof message !== 'string') continue;
    // undici's fetch refuses the ports browsers block (the Fetch standard's "bad port" list) without any I/O.
    if (message === 'bad port') return 'blocked port: fetch refuses that port (use another one)';
    if (/redirect count exceeded/i.test(message)) return 'too many redirects (a redirect loop?)';
  }
  return undefined;
}
