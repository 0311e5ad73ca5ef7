import { fetch as undiciFetch, type Dispatcher } from 'undici';
import { urlOf } from '../sdk/wire/fetch/agent-fetch.js';
import { directRequest, sendDirect } from './direct-fetch.js';

type Input = Parameters<typeof fetch>[0];

/**
 * The Node client's fetch, on the dispatcher `dispatcherFor` picks for each URL. A request of text,
 * bytes or form fields (every request the client itself makes) is sent on undici's dispatcher API
 * and answered as fetch answers it ({@link sendDirect}): fetch's own machinery (its `Request`,
 * `Headers`, controller and the copy of the body it keeps to follow a redirect, about 6 KB of heap
 * per open stream) cost a 100-chunk turn a fifth of its CPU. Anything else (a `Request`, a stream,
 * a `Blob` or `FormData` body), and a redirect to follow, goes through undici's fetch.
 */
export function undiciFetchOn(dispatcherFor: (url: string) => Dispatcher): typeof fetch {
  return ((input: Input, init?: RequestInit) => {
    const viaFetch = () =>
      undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        dispatcher: dispatcherFor(urlOf(input)),
      }) as unknown as Promise<Response>;
    const direct = directRequest(input, init);
    return direct === undefined ? viaFetch() : sendDirect(dispatcherFor(direct.url.href), direct, viaFetch);
  }) as typeof fetch;
}
