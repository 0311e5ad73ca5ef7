import { A2AError } from '../errors.js';
import { networkCause } from '../network-cause.js';
import { redactQuery } from '../port/card-url.js';
import { cardError } from './card-schema.js';

/** What a card fetch brought back: the parsed JSON and how long it may be cached. */
export interface FetchedCard {
  json: unknown;
  /** From `Cache-Control`: `max-age` in ms, 0 for `no-store`/`no-cache`, undefined when absent. */
  maxAgeMs: number | undefined;
}

/** The card could not be had: the request or its body failed on the way. */
function unreachable(cardUrl: string, verb: 'fetch' | 'read', cause: unknown): A2AError {
  const shown = redactQuery(cardUrl);
  const why = networkCause(cause);
  return new A2AError({
    kind: 'card',
    operation: 'card',
    agent: shown,
    message: `could not ${verb} the agent card from ${shown}${why === undefined ? '' : `: ${why}`}`,
    cause,
  });
}

/** Fetches and parses a card, refusing bodies over `maxBytes`. Aborts with `signal`. */
export async function fetchCard(fetchImpl: typeof fetch, cardUrl: string, maxBytes: number, signal: AbortSignal): Promise<FetchedCard> {
  let response: Response;
  try {
    response = await fetchImpl(cardUrl, { headers: { Accept: 'application/json', 'A2A-Version': '1.0' }, signal });
  } catch (cause) {
    // Ours (the card is behind authentication: an `auth` error) says it better than "could not fetch".
    if (cause instanceof A2AError) throw cause;
    throw unreachable(cardUrl, 'fetch', cause);
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    const shown = redactQuery(cardUrl);
    throw new A2AError({
      kind: 'card',
      operation: 'card',
      agent: shown,
      status: response.status,
      message: `no agent card at ${shown} (HTTP ${response.status})`,
    });
  }
  let text: string;
  try {
    text = await readLimited(response, maxBytes, () => cardError(cardUrl, `the agent card is larger than ${maxBytes} bytes`));
  } catch (cause) {
    if (cause instanceof A2AError) throw cause;
    // The connection broke while the body arrived: the card could not be fetched, as above.
    throw unreachable(cardUrl, 'read', cause);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    throw cardError(cardUrl, 'the agent card is not JSON', cause);
  }
  return { json, maxAgeMs: maxAgeOf(response.headers.get('cache-control')) };
}

/** The body as text, refused with `tooLarge()` past `maxBytes` (declared or read), without reading the rest. */
export async function readLimited(response: Response, maxBytes: number, tooLarge: () => Error): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge();
  }
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder().decode(bytes);
}

/** `max-age` of a Cache-Control header in ms; 0 when the response must not be reused. */
export function maxAgeOf(header: string | null): number | undefined {
  if (header === null) return undefined;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const match = /(^|,)\s*max-age\s*=\s*"?(\d+)"?/i.exec(header);
  return match ? Number(match[2]) * 1000 : undefined;
}
