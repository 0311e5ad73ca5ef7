/**
 * Why a request never got an answer, in a few words: found in an error's cause chain (fetch wraps
 * the real error as `TypeError: fetch failed` with a `cause`), so an error's message says it (and
 * the command line's one-line error, without `--verbose`). Pure: in a browser, where fetch names
 * no cause, it finds none.
 */

/**
 * The code of the error the Node fetch fails a request with when the agent closed a connection that
 * presented a client certificate right after the handshake, before any answer: how a server that
 * checks certificates after the handshake (Node's own) refuses one, without a TLS alert.
 */
export const CLOSED_AFTER_CLIENT_CERTIFICATE = 'A4H_TLS_CLOSED_AFTER_CLIENT_CERTIFICATE';

/** What a refusal says of the client certificate (see {@link CLIENT_CERTIFICATE}). */
type CertificateRefusal = 'none' | 'refused' | 'unknown' | 'closed';

/**
 * The TLS alerts an agent sends when it refuses the client's certificate, or asks for one none was
 * sent for (mutual TLS), by what they mean: `none` when the agent says no certificate came, `refused`
 * when it refused the one that came, `unknown` when the alert does not say which (TLS 1.2's
 * handshake_failure, which is also what a server says when no cipher suite fits); and `closed`, the
 * Node fetch's {@link CLOSED_AFTER_CLIENT_CERTIFICATE}.
 */
const CLIENT_CERTIFICATE: Record<string, CertificateRefusal> = {
  ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED: 'none',
  ERR_SSL_SSLV3_ALERT_BAD_CERTIFICATE: 'refused',
  ERR_SSL_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE: 'refused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_REVOKED: 'refused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_EXPIRED: 'refused',
  ERR_SSL_SSLV3_ALERT_CERTIFICATE_UNKNOWN: 'refused',
  ERR_SSL_TLSV1_ALERT_UNKNOWN_CA: 'refused',
  ERR_SSL_TLSV1_ALERT_ACCESS_DENIED: 'refused',
  ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE: 'unknown',
  [CLOSED_AFTER_CLIENT_CERTIFICATE]: 'closed',
};

const CLIENT_CERTIFICATE_PHRASE = {
  none: 'the agent refused the TLS handshake: it asks for a client certificate (mutual TLS) and none was sent',
  refused: 'the agent refused the TLS handshake: it did not accept the client certificate',
  unknown: 'the agent refused the TLS handshake (it may ask for a client certificate: mutual TLS)',
  closed:
    'the agent refused the TLS connection: it closed it after the handshake, before answering (most likely it did not accept the client certificate)',
} as const;

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

/** An agent's refusal of the TLS handshake for the client's certificate (mutual TLS), found in a cause chain. */
export interface ClientCertificateRefusal {
  /** The TLS alert, as Node names it (`ERR_SSL_TLSV13_ALERT_CERTIFICATE_REQUIRED`). */
  code: string;
  /** Whether the agent said no certificate came (`none`), refused the one that came, did not say, or closed the connection. */
  certificate: CertificateRefusal;
  /** The sentence: `the agent refused the TLS handshake: …`. */
  phrase: string;
}

/** The agent's refusal of the client certificate in `error`'s cause chain, or undefined when it names none. */
export function clientCertificateRefusal(error: unknown): ClientCertificateRefusal | undefined {
  for (const cause of chain(error)) {
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    const certificate = typeof code === 'string' ? CLIENT_CERTIFICATE[code] : undefined;
    if (typeof code === 'string' && certificate !== undefined) return { code, certificate, phrase: CLIENT_CERTIFICATE_PHRASE[certificate] };
  }
  return undefined;
}

/**
 * The agent's refusal of the client certificate in a text quoting OpenSSL's reason (`…:tlsv13 alert
 * certificate required:…`, as @grpc/grpc-js reports a channel that could not connect), or undefined.
 */
export function clientCertificateRefusalIn(text: string): ClientCertificateRefusal | undefined {
  const reason = /\b(sslv3|tlsv1|tlsv13) alert ([a-z ]+?)(?::|\.|$)/im.exec(text);
  if (reason === null) return undefined;
  const code = `ERR_SSL_${reason[1]} alert ${reason[2]}`.toUpperCase().replace(/ /g, '_');
  const certificate = CLIENT_CERTIFICATE[code];
  return certificate === undefined ? undefined : { code, certificate, phrase: CLIENT_CERTIFICATE_PHRASE[certificate] };
}

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
      const certificate = CLIENT_CERTIFICATE[code];
      if (certificate !== undefined) return CLIENT_CERTIFICATE_PHRASE[certificate];
      if (/^(ERR_TLS_|CERT_|ERR_SSL_)/.test(code)) return `certificate or TLS problem (${code})`;
    }
    if (typeof message !== 'string') continue;
    // undici's fetch refuses the ports browsers block (the Fetch standard's "bad port" list) without any I/O.
    if (message === 'bad port') return 'blocked port: fetch refuses that port (use another one)';
    if (/redirect count exceeded/i.test(message)) return 'too many redirects (a redirect loop?)';
  }
  return undefined;
}
