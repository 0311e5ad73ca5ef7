import { A2AError } from '../errors.js';
import { urlOf } from '../sdk/wire/fetch/agent-fetch.js';

/** Same-origin 307/308 redirects followed for a request sent with a client certificate, at most. */
const MAX_REDIRECTS = 3;

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/**
 * The Node fetch's rule for a request with a body (a message, a cancel, a push config) whose URL
 * presents a client certificate: it is redirected as a request carrying credentials is, a
 * same-origin 307/308 followed (at most three times) and anything else refused with an `http`
 * error, so what was sent to the agent that the certificate authenticates never reaches another
 * host. A `GET` or `HEAD` (the card, a task read) follows redirects as fetch does: it carries no body,
 * and another origin gets no certificate (the dispatchers' rule). A caller's own `redirect` mode wins.
 */
export function certificateRedirects(fetch: typeof globalThis.fetch, presents: (url: string) => boolean): typeof globalThis.fetch {
  return async (input, init) => {
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const first = urlOf(input);
    if (method === 'GET' || method === 'HEAD' || (init?.redirect ?? 'follow') !== 'follow' || !presents(first)) {
      return fetch(input, init);
    }
    const manual = { ...init, redirect: 'manual' as const };
    let target = first;
    for (let hop = 0; ; hop++) {
      const response = await fetch(hop === 0 ? input : target, manual);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || location === null) return response;
      await response.body?.cancel().catch(() => undefined);
      const next = new URL(location, target).href;
      const elsewhere = originOf(next) !== originOf(first);
      if (elsewhere || (response.status !== 307 && response.status !== 308) || hop >= MAX_REDIRECTS) {
        throw new A2AError({
          kind: 'http',
          status: response.status,
          retryable: false,
          message: `the agent answered a request sent with its client certificate with a redirect (HTTP ${response.status}${elsewhere ? ' to another origin' : ''}); not followed: what was sent goes to the agent the certificate is for only`,
        });
      }
      target = next;
    }
  };
}
