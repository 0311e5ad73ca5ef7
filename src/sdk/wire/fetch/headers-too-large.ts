import { A2AError } from '../../../errors.js';
import { wireMeaning } from '../classify/wire-errors.js';

/** HTTP 431 Request Header Fields Too Large (RFC 6585). */
export const HEADERS_TOO_LARGE = 431;

/** What went with a request that was answered 431, as the client knows it. */
export interface SentRequest {
  /** The URL the request went to (with an API key the credentials put in its query). */
  url: string;
  /** Every header the client gave the fetch (the fetch adds a few of its own: Host, User-Agent, …). */
  headers: Headers;
  /** The names of the headers the agent's credentials added (none for a request without credentials). */
  credentialHeaders: readonly string[];
  /** The bytes the credentials added to the URL's query (an API key placed there), 0 for none. */
  credentialQueryBytes: number;
}

/** One part of what was sent, as the message names it: what added it and its size. */
interface Part {
  what: string;
  bytes: number;
}

const EXTENSIONS = new Set(['a2a-extensions', 'x-a2a-extensions']);
const TRACE = new Set(['traceparent', 'tracestate', 'baggage']);
const VALIDATORS = new Set(['if-none-match', 'if-modified-since']);

/** A header line's bytes on the wire: `Name: value` and its CRLF. */
const lineBytes = (name: string, value: string): number => name.length + value.length + 4;

/** At most five names, for a message. */
const names = (list: readonly string[]): string => (list.length > 5 ? `${list.slice(0, 5).join(', ')}, …` : list.join(', '));

/**
 * The error of an HTTP 431: the agent (or a proxy before it) refused the request because its headers
 * were too large. It says which of what this client sent is large, biggest first, by what added it:
 * the credentials option's headers for this agent, the extensions, telemetry's trace context, a
 * cached card's validators, the URL (an HTTP+JSON call's task id, the agent URL's query: Node counts
 * the request line into its limit), the rest. Names and sizes only, never a value. Kind and
 * retryable come from the wire table (`http`, final: the same request would be refused the same way).
 */
export function headersTooLarge(sent: SentRequest): A2AError {
  const credentials = new Map(sent.credentialHeaders.map((name) => [name.toLowerCase(), name]));
  const group = () => ({ names: [] as string[], bytes: 0 });
  const groups = { credentials: group(), extensions: group(), trace: group(), validators: group(), other: group() };
  for (const [name, value] of sent.headers) {
    const into = credentials.has(name)
      ? groups.credentials
      : EXTENSIONS.has(name)
        ? groups.extensions
        : TRACE.has(name)
          ? groups.trace
          : VALIDATORS.has(name)
            ? groups.validators
            : groups.other;
    into.names.push(credentials.get(name) ?? KNOWN[name] ?? name);
    into.bytes += lineBytes(name, value);
  }
  const url = new URL(sent.url);
  const credentialParts = [...(groups.credentials.names.length ? [names(groups.credentials.names)] : [])];
  if (sent.credentialQueryBytes > 0) credentialParts.push('its API key in the query');
  const parts: Part[] = [
    {
      what: `the headers the credentials option adds for this agent (${credentialParts.join('; ')})`,
      bytes: groups.credentials.bytes + sent.credentialQueryBytes,
    },
    { what: `the extensions (${names(groups.extensions.names)}: the extensions option's and the turn's)`, bytes: groups.extensions.bytes },
    { what: `telemetry's trace context (${names(groups.trace.names)})`, bytes: groups.trace.bytes },
    { what: `the cached card's validators (${names(groups.validators.names)})`, bytes: groups.validators.bytes },
    { what: "the URL's path and query", bytes: url.pathname.length + url.search.length - sent.credentialQueryBytes },
    { what: `other headers (${names(groups.other.names)})`, bytes: groups.other.bytes },
  ]
    .filter((part) => part.bytes > 0)
    .sort((a, b) => b.bytes - a.bytes);
  const total = parts.reduce((sum, part) => sum + part.bytes, 0);
  const [largest, ...rest] = parts;
  const detail =
    largest === undefined
      ? ''
      : `; the largest part: ${largest.what}, ${largest.bytes} bytes` +
        (rest.length ? `; then ${rest.map((part) => `${part.what}, ${part.bytes}`).join('; ')}` : '') +
        ` (${total} bytes in all, besides the few the fetch adds itself: Host, User-Agent, …)`;
  const meaning = wireMeaning('http', HEADERS_TOO_LARGE);
  return new A2AError({
    kind: meaning?.kind ?? 'http',
    retryable: meaning?.retryable ?? false,
    status: HEADERS_TOO_LARGE,
    message: `the agent refused the request because its headers were too large (HTTP 431 Request Header Fields Too Large)${detail}`,
  });
}

/** The headers the client sends itself, as people write them (a `Headers` lower-cases names). */
const KNOWN: Readonly<Record<string, string>> = {
  'a2a-version': 'A2A-Version',
  'a2a-extensions': 'A2A-Extensions',
  'x-a2a-extensions': 'X-A2A-Extensions',
  'content-type': 'Content-Type',
  accept: 'Accept',
  'if-none-match': 'If-None-Match',
  'if-modified-since': 'If-Modified-Since',
  'cache-control': 'Cache-Control',
};
