/** An RFC 9110 token (tchar only): what a header name is, and (RFC 6265) what a cookie name is. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** The longest API key name taken (a header, query parameter or cookie name). */
const MAX_NAME = 256;

/**
 * Header names an API key never goes in, lower case, each for its reason:
 * - the message's framing and the connection (RFC 9110 §7.6.1, RFC 9112): a key there would break
 *   the request or be dropped by the fetch without a word (undici drops `Host`);
 * - the ones the Fetch standard forbids a script to set, so a browser drops them without a word
 *   (`Cookie` among them: a card that wants a cookie says `in: cookie`; `Proxy-*` would hand the
 *   key to a proxy on the way, not the agent);
 * - the client's own, which the key would replace: the protocol's (`Content-Type`, `Accept`,
 *   `A2A-Version`, the extensions'), telemetry's, a card revalidation's and `User-Agent`;
 * - an answer's own (`ETag`, `Last-Modified`).
 *
 * `Authorization` is not here: OpenAPI-style cards often put an API key there; the plan refuses it
 * only when the same credentials send a bearer token (it would replace it).
 */
export const REFUSED_HEADERS: ReadonlySet<string> = new Set([
  // framing and connection
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  // forbidden to scripts by the Fetch standard
  'accept-charset',
  'accept-encoding',
  'access-control-request-headers',
  'access-control-request-method',
  'access-control-request-private-network',
  'cookie',
  'cookie2',
  'date',
  'dnt',
  'origin',
  'referer',
  'set-cookie',
  'via',
  'x-http-method',
  'x-http-method-override',
  'x-method-override',
  // the client's own
  'content-type',
  'accept',
  'a2a-version',
  'a2a-extensions',
  'x-a2a-extensions',
  'traceparent',
  'tracestate',
  'baggage',
  'if-none-match',
  'if-modified-since',
  'cache-control',
  'user-agent',
  // an answer's own, never a request's (and the command line's --debug shows them: they carry no credential)
  'etag',
  'last-modified',
]);

/** Prefixes of header names the Fetch standard forbids too (`Proxy-Authorization`, `Sec-Fetch-Mode`, …). */
const REFUSED_PREFIXES = ['proxy-', 'sec-'];

/** A query parameter name: printable ASCII (no space, no control character)… */
const PRINTABLE = /^[\x21-\x7e]+$/;
/** …without the characters that would split or change it. */
const QUERY_SPLITTERS = /[&=#;+%]/;

/** Where an API key goes. */
export type ApiKeyPlace = 'header' | 'query' | 'cookie';

/**
 * What is wrong with `name` as the name of an API key placed `in`, or undefined when nothing is: a
 * header name is an RFC 9110 token and none of {@link REFUSED_HEADERS}; a cookie name an RFC 6265
 * cookie-name (a token: no `;`, `=`, space or control character); a query parameter name printable
 * ASCII without the characters that would split it.
 */
export function apiKeyNameProblem(place: ApiKeyPlace, name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.length > MAX_NAME) return `is longer than ${MAX_NAME} characters`;
  switch (place) {
    case 'header': {
      if (!TOKEN.test(name)) return "is no header name (an RFC 9110 token: letters, digits and !#$%&'*+.^_`|~-)";
      const lower = name.toLowerCase();
      if (REFUSED_HEADERS.has(lower) || REFUSED_PREFIXES.some((prefix) => lower.startsWith(prefix))) {
        return 'is a header the client does not let an API key replace (framing, forbidden to browsers, its own or an answer’s)';
      }
      return undefined;
    }
    case 'cookie':
      return TOKEN.test(name) ? undefined : 'is no cookie name (an RFC 6265 token: no ; = , space or control character)';
    case 'query':
      return PRINTABLE.test(name) && !QUERY_SPLITTERS.test(name)
        ? undefined
        : 'is no query parameter name (printable ASCII without space, & = # ; + %)';
  }
}

/** A name from a card as messages show it: quoted with its control characters escaped, and bounded. */
export function shownName(name: string): string {
  const quoted = JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
  return quoted.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
