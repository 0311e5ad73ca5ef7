import { A2AError, isA2AError } from '../../../errors.js';
import { redactQuery } from '../../../port/card-url.js';
import { fetchCard, type CardValidators, type FetchedCard, type NotModified } from './fetch.js';

/** The well-known path of a card since A2A v0.3 (`CARD_PATH`), and the one before it (v0.2 and earlier). */
const CURRENT = '/.well-known/agent-card.json';
const OLD = 'agent.json';

/** A card fetch's answer, and the URL it came from (the old path's, when the card was there). */
export interface CardAt {
  fetched: FetchedCard | NotModified;
  /** Where the card came from: relative addresses on it are read against this URL. */
  from: string;
}

/**
 * The card at `cardUrl`; when the caller gave a base URL (`fromBase`: `cardUrl` is the well-known path
 * under it, not a card URL the caller chose) and that path answers 404, the path A2A v0.2 and earlier
 * named, `/.well-known/agent.json` beside it (with the same query), is asked once, without the
 * validators (they belong to the other URL). A 404 there too is the first 404, saying both were
 * tried; another failure there is that failure (the old path answers, but not with a card).
 *
 * A card held from the old path is revalidated there, with its validators (its `from`), so an
 * unchanged card is a 304 at the one URL; a 404 there (the card has moved) asks as at first, without
 * them. The validators of a card from the old path name it as their `from`.
 */
export async function fetchCardOrOld(
  fetchImpl: typeof fetch,
  cardUrl: string,
  maxBytes: number,
  signal: AbortSignal,
  validators: CardValidators | undefined,
  fromBase: boolean,
): Promise<CardAt> {
  const { from, ...conditions } = validators ?? {};
  if (from !== undefined && from !== cardUrl) {
    try {
      return { fetched: heldAt(await fetchCard(fetchImpl, from, maxBytes, signal, conditions), from), from };
    } catch (error) {
      if (!isA2AError(error, 'card') || error.status !== 404 || signal.aborted) throw error;
      return fetchCardOrOld(fetchImpl, cardUrl, maxBytes, signal, undefined, fromBase);
    }
  }
  try {
    return { fetched: await fetchCard(fetchImpl, cardUrl, maxBytes, signal, validators), from: cardUrl };
  } catch (error) {
    if (!fromBase || !isA2AError(error, 'card') || error.status !== 404 || signal.aborted) throw error;
    const old = oldPathOf(cardUrl);
    if (old === undefined) throw error;
    try {
      return { fetched: heldAt(await fetchCard(fetchImpl, old, maxBytes, signal), old), from: old };
    } catch (again) {
      if (!(isA2AError(again, 'card') && again.status === 404)) throw again;
      throw new A2AError({
        kind: 'card',
        retryable: false,
        operation: 'card',
        ...(error.agent === undefined ? {} : { agent: error.agent }),
        status: 404,
        // Both misses first, then what the first one hints (a transport's URL given for the agent's).
        message: error.message.replace('(HTTP 404)', `(HTTP 404), nor at ${redactQuery(old)} (the path of A2A v0.2 and earlier; HTTP 404)`),
        cause: again,
      });
    }
  }
}

/** `…/.well-known/agent.json` beside `…/.well-known/agent-card.json` (its query kept), or undefined for any other URL. */
function oldPathOf(cardUrl: string): string | undefined {
  const url = new URL(cardUrl);
  if (!url.pathname.endsWith(CURRENT)) return undefined;
  const old = new URL(OLD, url);
  old.search = url.search;
  return old.href;
}

/** `fetched` with its validators saying they came from `from` (where the next revalidation goes). */
function heldAt(fetched: FetchedCard | NotModified, from: string): FetchedCard | NotModified {
  return fetched.validators === undefined ? fetched : { ...fetched, validators: { ...fetched.validators, from } };
}
