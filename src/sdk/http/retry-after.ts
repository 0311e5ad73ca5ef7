import { NOT_NOW_STATUSES } from '../../port/codes.js';

/** The longest wait a `Retry-After` is read as (about 24.8 days: a JavaScript timer's longest). */
const MAX_RETRY_AFTER_MS = 2_147_483_647;

/**
 * A `Retry-After` value (RFC 9110 §10.2.3) in milliseconds from `now`: a whole number of seconds, or
 * an HTTP date (a date in the past is 0). Anything else, or no value, is undefined: the caller's own
 * backoff decides then.
 */
export function parseRetryAfter(value: string | null | undefined, now: number = Date.now()): number | undefined {
  const text = value?.trim();
  if (text === undefined || text === '') return undefined;
  if (/^\d+$/.test(text)) return Math.min(MAX_RETRY_AFTER_MS, Number(text) * 1000);
  // An HTTP date names its day (`Sun, 06 Nov 1994 08:49:37 GMT`, or the two obsolete forms): a bare number or word is none.
  if (!/[a-z]{3}/i.test(text) || !/\d{1,2}:\d{2}:\d{2}/.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, at - now));
}

/** The `Retry-After` of a 429 or 503 answer, in milliseconds from now; undefined for any other answer or none. */
export function retryAfterOf(response: Response, now?: number): number | undefined {
  return NOT_NOW_STATUSES.has(response.status) ? parseRetryAfter(response.headers.get('retry-after'), now) : undefined;
}
