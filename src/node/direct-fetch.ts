import type { Readable, Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
// undici's own Response and Headers, as its fetch answers with (a caller gets the classes it got before); the
// global ones are Node's bundled copy of undici, a second copy of that code for a cold turn to run the first time.
import { Headers as UndiciHeaders, Response as UndiciResponse, type Dispatcher } from 'undici';

/**
 * A request the Node client sends on undici's dispatcher API instead of its fetch: a `http:` or
 * `https:` URL without credentials nor one of fetch's bad ports, and a body of text, bytes or form
 * fields (or none). Everything else (a `Request`, a stream, a `Blob`, a `FormData`) goes through
 * undici's fetch.
 */
export interface DirectRequest {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | Uint8Array | null;
  redirect: RequestRedirect;
  signal: AbortSignal | undefined;
}

/** The Fetch standard's "bad ports": fetch refuses them without any I/O, so only fetch's own path may answer them. */
const BAD_PORTS = new Set(
  [
    1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104, 109, 110, 111, 113, 115, 117,
    119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636,
    989, 990, 993, 995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
  ].map(String),
);
/** The headers undici's fetch adds to a request that has none of that name: an agent sees the same request either way. */
const FETCH_DEFAULTS: readonly (readonly [string, string])[] = [
  ['accept', '*/*'],
  ['accept-language', '*'],
  ['sec-fetch-mode', 'cors'],
  ['user-agent', 'undici'],
  ['accept-encoding', 'gzip, deflate'],
];
const WITHOUT_BODY = new Set([101, 103, 204, 205, 304]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  'x-gzip': createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

/** `input` and `init` as a {@link DirectRequest}, or undefined when only fetch's own path keeps their meaning. */
export function directRequest(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): DirectRequest | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined;
  const url = URL.canParse(input) ? new URL(input) : undefined;
  if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:')) return undefined;
  if (url.username !== '' || url.password !== '' || BAD_PORTS.has(url.port)) return undefined;
  const method = (init?.method ?? 'GET').toUpperCase();
  const headers = headerRecord(init?.headers);
  const body = bodyOf(init?.body, headers);
  if (body === undefined || (body !== null && (method === 'GET' || method === 'HEAD'))) return undefined;
  for (const [name, value] of FETCH_DEFAULTS) headers[name] ??= value;
  return { url, method, headers, body, redirect: init?.redirect ?? 'follow', signal: init?.signal ?? undefined };
}

/**
 * Sends `request` (with the headers fetch adds) on `dispatcher` and answers as fetch would: a
 * `Response` whose body is a web stream over the socket's bytes (decoded by its `Content-Encoding`),
 * the same errors (a request that never got an answer rejects with `TypeError: fetch failed` and the
 * cause, a body cut short errors with `TypeError: terminated`, an abort with the signal's reason),
 * and the same redirect modes: `manual` gets the redirect itself, `error` undici's "unexpected
 * redirect", and `follow` hands the request to `followed` (undici's fetch, which follows it; so a
 * redirected request is sent twice to the URL that redirects it). What it leaves out of fetch is what costs: its `Request` and `Headers`
 * objects, its controller, its copy of the body; about a quarter of a millisecond of CPU a request.
 */
export async function sendDirect(dispatcher: Dispatcher, request: DirectRequest, followed: () => Promise<Response>): Promise<Response> {
  const { signal } = request;
  signal?.throwIfAborted();
  let answer: Dispatcher.ResponseData;
  try {
    answer = await dispatcher.request({
      origin: request.url.origin,
      path: `${request.url.pathname}${request.url.search}`,
      method: request.method as Dispatcher.HttpMethod,
      headers: request.headers,
      body: request.body,
      signal,
    });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new TypeError('fetch failed', { cause: error });
  }
  const { statusCode: status, body } = answer;
  if (REDIRECTS.has(status) && answer.headers['location'] !== undefined && request.redirect !== 'manual') {
    drop(body);
    if (request.redirect === 'error') throw new TypeError('fetch failed', { cause: new Error('unexpected redirect') });
    return followed();
  }
  const headers = new UndiciHeaders();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (typeof value === 'string') headers.append(name, value);
    else if (value !== undefined) for (const one of value) headers.append(name, one);
  }
  const empty = WITHOUT_BODY.has(status) || request.method === 'HEAD';
  if (empty) drop(body);
  const response = new UndiciResponse(empty ? null : webBody(decoded(body, headers.get('content-encoding')), signal), {
    status,
    statusText: answer.statusText,
    headers,
  });
  Object.defineProperty(response, 'url', { value: request.url.href });
  return response as unknown as Response; // undici-fetch.ts casts its fetch the same way
}

/** The caller's headers as one record of lower-case names (fetch's `Headers` joins repeats with ", "). */
function headerRecord(init: HeadersInit | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  if (init === undefined) return record;
  // A `Headers` of any make (the global one or undici's), pairs, or a record.
  const pairs: Iterable<[string, string]> = Symbol.iterator in init ? (init as Iterable<[string, string]>) : Object.entries(init);
  for (const [name, value] of pairs) {
    const key = name.toLowerCase();
    record[key] = record[key] === undefined ? String(value) : `${record[key]}, ${String(value)}`;
  }
  return record;
}

/** The body as the dispatcher takes it, its `Content-Type` set as fetch sets it; undefined for a kind only fetch sends. */
function bodyOf(body: RequestInit['body'], headers: Record<string, string>): string | Uint8Array | null | undefined {
  if (body === undefined || body === null) return null;
  const type = (value: string) => (headers['content-type'] ??= value);
  if (typeof body === 'string') {
    type('text/plain;charset=UTF-8');
    return body;
  }
  if (body instanceof URLSearchParams) {
    type('application/x-www-form-urlencoded;charset=UTF-8');
    return body.toString();
  }
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

/** The body decoded as fetch decodes it (gzip, deflate, br); as it came for any other coding. */
function decoded(body: Readable, coding: string | null): Readable {
  const decoder = coding === null ? undefined : DECODERS[coding.trim().toLowerCase()];
  if (decoder === undefined) return body;
  const stream = decoder();
  body.on('error', (error) => stream.destroy(error));
  stream.on('close', () => body.destroy());
  return body.pipe(stream);
}

/** A body nobody will read: read to its end when it is short (the connection kept), else its connection closed. */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.dump().catch(() => undefined);
}

/** The bytes of `source` as a web stream, read as the reader asks for them; its errors as fetch's body reports them. */
function webBody(source: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let open = true;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        source.on('data', (chunk: Buffer) => {
          if (!open) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) source.pause();
        });
        source.on('end', () => {
          if (open) controller.close();
          open = false;
        });
        source.on('error', (error) => {
          if (open) controller.error(signal?.aborted ? signal.reason : new TypeError('terminated', { cause: error }));
          open = false;
        });
      },
      pull() {
        source.resume();
      },
      cancel() {
        open = false;
        source.destroy();
      },
    },
    { highWaterMark: 1 },
  );
}
