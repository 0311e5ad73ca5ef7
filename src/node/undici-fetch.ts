import { fetch as undiciFetch, type Dispatcher } from 'undici';

type Input = Parameters<typeof fetch>[0];

/**
 * undici's fetch on the dispatcher `dispatcherFor` picks for each URL, without the copy of the body
 * it makes for redirects. To follow a redirect it could meet, undici tees the body of every request
 * that has one (the Fetch standard's "clone", skipped only when the redirect mode is "error"), and
 * the two streams live as long as the answer: for a stream that stays open that is about 6 KB of heap
 * per open turn and a share of each request's CPU. A request whose body can be made again (text,
 * bytes, a form; not a stream, not a `Request`) is therefore sent with `redirect: 'error'`; when its
 * answer is a redirect (undici's "unexpected redirect"), the same request is sent once more with the
 * caller's own redirect mode ("follow", or "manual" for a caller that follows redirects itself),
 * which then treats the redirect as it always did. A redirected request with a body is thus sent
 * twice to the URL that redirects it; nothing else changes (a caller who asked for "error" gets its
 * error, a request without a body goes as it is).
 */
export function undiciFetchOn(dispatcherFor: (url: string) => Dispatcher): typeof fetch {
  return (async (input: Input, init?: RequestInit) => {
    const send = (redirect: RequestRedirect | undefined) =>
      undiciFetch(input as Parameters<typeof undiciFetch>[0], {
        ...(init as Parameters<typeof undiciFetch>[1]),
        ...(redirect === undefined ? {} : { redirect }),
        dispatcher: dispatcherFor(urlOf(input)),
      }) as unknown as Promise<Response>;
    const mode = init?.redirect ?? 'follow';
    if (mode === 'error' || !copiedButRemade(input, init?.body)) return send(init?.redirect);
    try {
      return await send('error');
    } catch (error) {
      if (!isRedirect(error)) throw error;
      return send(mode);
    }
  }) as typeof fetch;
}

/**
 * Whether a request has a body undici would copy and that can be made again as it was: text, bytes or
 * a form, on a URL (a `Request`'s body and a stream are read once). A request without a body is not
 * copied: it goes as it is.
 */
function copiedButRemade(input: Input, body: RequestInit['body']): boolean {
  if (typeof input !== 'string' && !(input instanceof URL)) return false;
  return (
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    body instanceof Blob ||
    body instanceof FormData
  );
}

/** undici's rejection of an answer that redirects a request sent with `redirect: 'error'`. */
function isRedirect(error: unknown): boolean {
  return error instanceof TypeError && error.cause instanceof Error && error.cause.message === 'unexpected redirect';
}

/** The URL a fetch is asked for. */
function urlOf(input: Input): string {
  return typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
}
