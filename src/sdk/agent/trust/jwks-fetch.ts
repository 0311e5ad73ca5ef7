import { redactQuery } from '../../../port/card-url.js';
import { readBody } from '../../http/body.js';
import { maxAgeOf } from '../card/fetch.js';
import { readJwks, type TrustedKey } from './jwks.js';
import { normaliseJwksUrl } from './options.js';

/** The most redirects followed from a trusted JWKS URL, all within its origin. */
export const MAX_JWKS_REDIRECTS = 3;

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** A JWKS as fetched: its keys (each naming the URL it was read from) and how long the server lets them be kept. */
export interface FetchedJwks {
  value: TrustedKey[];
  maxAgeMs: number | undefined;
}

/** The error of a JWKS that could not be had: the trusted URL (its query redacted) and why, with the cause. */
export function jwksError(url: string, cause: unknown): Error {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Error(`the JWKS at ${redactQuery(url)} could not be had: ${why}`, { cause });
}

/**
 * Fetches and reads the JWKS at the trusted `url`. Redirects are not left to `fetch`
 * (`redirect: 'manual'`): one within the URL's origin is followed, up to {@link MAX_JWKS_REDIRECTS}
 * (that origin answers for the trusted URL anyway); one to another origin is refused, since its
 * keys are not trusted; so is one whose target the fetch hides (a browser's opaque redirect). The
 * keys name the URL they were read from.
 */
export async function fetchJwks(fetchImpl: typeof fetch, url: string, maxBytes: number, signal: AbortSignal): Promise<FetchedJwks> {
  try {
    let at = url;
    for (let hops = 0; ; hops++) {
      const response = await fetchImpl(at, {
        headers: { Accept: 'application/jwk-set+json, application/json' },
        redirect: 'manual',
        signal,
      });
      if (response.type === 'opaqueredirect' || REDIRECTS.has(response.status)) {
        await response.body?.cancel().catch(() => undefined);
        at = redirectTarget(response, at, hops);
        continue;
      }
      if (!response.ok) {
        await response.body?.cancel().catch(() => undefined);
        throw new Error(`HTTP ${response.status}`);
      }
      const text = await readBody(response, { maxBytes, tooLarge: () => new Error(`it is larger than ${maxBytes} bytes`) });
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        throw new Error('it is not JSON');
      }
      return { value: readJwks(json, at), maxAgeMs: maxAgeOf(response.headers.get('cache-control')) };
    }
  } catch (error) {
    throw jwksError(url, error);
  }
}

/** Where a redirect from `from` leads, when it may be followed: same origin, a URL without user or password, few hops. */
function redirectTarget(response: Response, from: string, hops: number): string {
  if (response.type === 'opaqueredirect') {
    throw new Error('it redirects, and this fetch does not say where (a browser hides it): trust the URL it redirects to instead');
  }
  const location = response.headers.get('location');
  if (location === null) throw new Error(`HTTP ${response.status} without a Location`);
  let target: URL;
  try {
    target = new URL(location, from);
  } catch {
    throw new Error(`HTTP ${response.status} to a Location that is not a URL`);
  }
  if (target.origin !== new URL(from).origin) {
    throw new Error(`it redirects to another origin (${target.origin}), whose keys are not trusted`);
  }
  const next = normaliseJwksUrl(target.href);
  if (next === undefined) throw new Error('it redirects to a URL with a user or password');
  if (hops >= MAX_JWKS_REDIRECTS) throw new Error(`it redirects more than ${MAX_JWKS_REDIRECTS} times`);
  return next;
}
