import { A2AError } from '../errors.js';

/** The well-known path of an agent card, relative to the agent's base URL. */
export const CARD_PATH = '.well-known/agent-card.json';

/**
 * The card URL for what a user typed: a card URL (ending in `.json`) is used as it is; anything
 * else is a base URL, and `https://h/agent` and `https://h/agent/` reach the same card
 * (`https://h/agent/.well-known/agent-card.json`). The query is kept (`https://h/agent?key=K` →
 * `https://h/agent/.well-known/agent-card.json?key=K`: hosted agents carry API keys there), so it
 * goes with the card fetch and every call, and is part of the card cache's key. Credentials in the
 * URL are refused.
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
 *
 * Process-wide on purpose: it memoises a pure function of its input (no option, no clock, no agent's
 * answer goes in), so every client in the process may share it, and one shared table stays smaller
 * than one per client.
 */
const known = new Map<string, string>();
const KNOWN_MAX = 1024;

function parseCardUrl(agent: string): string {
  let url: URL;
  try {
    url = new URL(agent);
  } catch (cause) {
    throw notAUrl(agent, cause);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    // `localhost:41241` parses, with `localhost:` as its scheme.
    if (withScheme(agent) !== undefined) throw notAUrl(agent);
    throw new A2AError({ kind: 'input', operation: 'card', message: `the agent URL must be http or https, not ${url.protocol}` });
  }
  if (url.username || url.password) {
    throw new A2AError({ kind: 'input', operation: 'card', message: 'the agent URL must not carry credentials; pass them as headers' });
  }
  url.hash = '';
  if (url.pathname.endsWith('.json')) return url.href;
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  const card = new URL(CARD_PATH, url);
  card.search = url.search;
  return card.href;
}

/** The error for what is no URL, with the URL the user probably meant when it is a host and port. */
function notAUrl(agent: string, cause?: unknown): A2AError {
  const meant = withScheme(agent);
  return new A2AError({
    kind: 'input',
    operation: 'card',
    message: `not a URL: ${JSON.stringify(redactQuery(agent.slice(0, 200)))}${meant === undefined ? '' : `; did you mean ${redactQuery(meant)}?`}`,
    ...(cause === undefined ? {} : { cause }),
  });
}

/**
 * `host:port` or `host/path` without a scheme, as the URL it most likely means: `http://` for a
 * loopback host (a local agent), `https://` for any other; undefined for anything else.
 */
function withScheme(agent: string): string | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*)(:\d{1,5})?([/?].*)?$/s.exec(agent);
  if (match === null) return undefined;
  const host = match[1]!.toLowerCase();
  const loopback = host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
  if (!loopback && !host.includes('.')) return undefined;
  return `${loopback ? 'http' : 'https'}://${agent}${match[3] === undefined ? '/' : ''}`;
}

/**
 * A URL as errors, logs and telemetry show it: each query value replaced by `***` (`?key=***`), since
 * a query often carries an API key. A string that is no URL keeps nothing after its `?`.
 */
export function redactQuery(url: string): string {
  if (!url.includes('?')) return url;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/\?.*$/s, '?…');
  }
  const names = [...parsed.searchParams.keys()];
  if (names.length === 0) return url;
  parsed.search = names.map((name) => `${encodeURIComponent(name)}=***`).join('&');
  return parsed.href;
}
