import { A2AError } from '../errors.js';
import { cardError } from './card-schema.js';

/** The well-known path of an agent card, relative to the agent's base URL. */
export const CARD_PATH = '.well-known/agent-card.json';

/**
 * The card URL for what a user typed: a card URL (ending in `.json`) is used as it is; anything
 * else is a base URL, and `https://h/agent` and `https://h/agent/` reach the same card
 * (`https://h/agent/.well-known/agent-card.json`). Credentials in the URL are refused.
 */
export function cardUrlOf(agent: string): string {
  let cardUrl = known.get(agent);
  if (cardUrl === undefined) {
    cardUrl = parseCardUrl(agent);
    if (known.size >= KNOWN_MAX) known.clear();
    known.set(agent, cardUrl);
  }
  return cardUrl;
}

/**
 * The card URLs of the agents seen lately: every turn asks for its agent's (the input check, the port),
 * and a gateway talks to few agents, so a URL is parsed once, not three times a turn. Bounded: cleared
 * when full. Refused URLs are not kept (they fail again, as they should).
 */
const known = new Map<string, string>();
const KNOWN_MAX = 1024;

function parseCardUrl(agent: string): string {
  let url: URL;
  try {
    url = new URL(agent);
  } catch (cause) {
    throw new A2AError({ kind: 'input', operation: 'card', message: `not a URL: ${JSON.stringify(agent.slice(0, 200))}`, cause });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new A2AError({ kind: 'input', operation: 'card', message: `the agent URL must be http or https, not ${url.protocol}` });
  }
  if (url.username || url.password) {
    throw new A2AError({ kind: 'input', operation: 'card', message: 'the agent URL must not carry credentials; pass them as headers' });
  }
  url.hash = '';
  if (url.pathname.endsWith('.json')) return url.href;
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  return new URL(CARD_PATH, url).href;
}

/** What a card fetch brought back: the parsed JSON and how long it may be cached. */
export interface FetchedCard {
  json: unknown;
  /** From `Cache-Control`: `max-age` in ms, 0 for `no-store`/`no-cache`, undefined when absent. */
  maxAgeMs: number | undefined;
}

/** The card could not be had: the request or its body failed on the way. */
function unreachable(cardUrl: string, verb: 'fetch' | 'read', cause: unknown): A2AError {
  return new A2AError({
    kind: 'card',
    operation: 'card',
    agent: cardUrl,
    message: `could not ${verb} the agent card from ${cardUrl}`,
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
    throw new A2AError({
      kind: 'card',
      operation: 'card',
      agent: cardUrl,
      status: response.status,
      message: `no agent card at ${cardUrl} (HTTP ${response.status})`,
    });
  }
  let text: string;
  try {
    text = await readLimited(response, maxBytes, cardUrl);
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

async function readLimited(response: Response, maxBytes: number, cardUrl: string): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  const tooLarge = () => cardError(cardUrl, `the agent card is larger than ${maxBytes} bytes`);
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
