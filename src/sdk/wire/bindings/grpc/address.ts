/**
 * A gRPC interface's address, as cards write it: the spec's `host:port`, or a URL, `grpc://host:port`
 * or `https://host:port`. Read here without any gRPC code, so the core decides whether an interface is
 * usable before anything is loaded.
 */

/** Where one gRPC interface is called, and how. */
export interface GrpcAddress {
  /** `host:port` as @grpc/grpc-js takes it (an IPv6 host in brackets). */
  readonly target: string;
  /** The host alone (an IPv6 one in brackets), lower case. */
  readonly host: string;
  readonly port: number;
  /**
   * TLS or plaintext. `https://` and `grpcs://` are TLS; `grpc://` and `http://` are plaintext, as
   * written; a bare `host:port` is plaintext on loopback only and TLS everywhere else.
   */
  readonly tls: boolean;
  /** How summaries, errors and logs show it: `grpcs://host:port` or `grpc://host:port`. */
  readonly url: string;
  /**
   * The http(s) origin the `credentials` option scopes it by: `https://host:port` over TLS,
   * `http://host:port` in plaintext (the same rule of origins as the HTTP bindings).
   */
  readonly origin: string;
}

const TLS_SCHEMES: Readonly<Record<string, boolean>> = { 'https:': true, 'grpcs:': true, 'grpc:': false, 'http:': false };
const DEFAULT_PORTS: Readonly<Record<string, number>> = { 'https:': 443, 'grpcs:': 443, 'http:': 80 };

/** `localhost`, 127.0.0.0/8 and `[::1]`: the only hosts a bare address reaches in plaintext. */
export function isLoopbackHost(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Reads a gRPC interface's address; undefined when it is none of the three forms (no host, no port
 * where one is needed, a path, a query, a user or another scheme).
 */
export function parseGrpcAddress(address: string): GrpcAddress | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address)?.[1]?.toLowerCase();
  const bare = scheme === undefined;
  let url: URL;
  try {
    // A bare `host:port` is read as the authority of a URL of a scheme of our own.
    url = new URL(bare ? `grpc://${address}` : address);
  } catch {
    return undefined;
  }
  const protocol = bare ? 'grpc:' : url.protocol;
  const tlsByScheme = TLS_SCHEMES[protocol];
  if (tlsByScheme === undefined || url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') return undefined;
  if (url.pathname !== '' && url.pathname !== '/') return undefined;
  const host = url.hostname.toLowerCase();
  const port = url.port === '' ? DEFAULT_PORTS[protocol] : Number(url.port);
  if (host === '' || port === undefined || !Number.isInteger(port) || port < 1 || port > 65_535) return undefined;
  const tls = bare ? !isLoopbackHost(host) : tlsByScheme;
  const target = `${host}:${port}`;
  return { target, host, port, tls, url: `${tls ? 'grpcs' : 'grpc'}://${target}`, origin: `${tls ? 'https' : 'http'}://${target}` };
}

/** The same address on another host (the card's, for an interface naming a bind address), in the form it was written. */
export function onHost(address: string, parsed: GrpcAddress, host: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(address)?.[0] ?? '';
  return `${scheme}${host}:${parsed.port}`;
}
