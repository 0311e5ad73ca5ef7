import { A2AError } from '../../../../errors.js';
import { readBody } from '../../body.js';

/** What an OAuth endpoint answered: its HTTP status and its body as JSON (undefined when the body is none or not JSON). */
export interface EndpointAnswer {
  /** The HTTP status. */
  status: number;
  /** The body as JSON; undefined when there is none, or it is not JSON. */
  json: unknown;
}

/** One form POST to an OAuth endpoint (a token endpoint, a device authorization endpoint). */
export interface EndpointPost {
  /** Where it goes. */
  url: string;
  /** How errors name the endpoint, its query already redacted: `the token endpoint https://idp.example/token`. */
  name: string;
  /** The request's headers (the content type, the client's authentication). */
  headers: Record<string, string>;
  /** The form, encoded. */
  body: string;
  /** The fetch it goes through. */
  fetch: typeof fetch;
  /** Ends the request and the reading of its answer: a `TimeoutError` reason is a `timeout` error, any other an `aborted` one. */
  signal?: AbortSignal;
  /** The largest body read: past it the answer is dropped unread. */
  maxBytes: number;
}

/**
 * POSTs the form and reads the answer, bounded in size and in time: no redirect followed (the
 * request may carry a client secret); a `content-length` over `maxBytes` fails before any byte is
 * read, a body that grows past it fails at that byte; the signal ends the wait for the headers and
 * for every chunk of the body, so a silent or trickling endpoint ends when the signal does. Errors
 * name the endpoint only: `network` (unreachable, or the answer broke off), `timeout` (the signal's
 * timeout), `aborted` (the signal, another reason), `auth` (a redirect, an answer too large), never
 * with a header or the form.
 */
export async function postToEndpoint(post: EndpointPost): Promise<EndpointAnswer> {
  let response: Response;
  try {
    response = await post.fetch(post.url, {
      method: 'POST',
      headers: post.headers,
      body: post.body,
      redirect: 'manual',
      ...(post.signal ? { signal: post.signal } : {}),
    });
  } catch (cause) {
    if (post.signal?.aborted) throw abortError(post, cause);
    throw new A2AError({ kind: 'network', message: `${post.name} could not be reached`, cause });
  }
  if (response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400)) {
    await response.body?.cancel().catch(() => undefined);
    throw endpointError(post.name, `answered with a redirect (HTTP ${response.status}); not followed with the client's secret`);
  }
  const text = await readBody(response, {
    maxBytes: post.maxBytes,
    tooLarge: () => endpointError(post.name, `answered more than ${post.maxBytes} bytes`),
    ...(post.signal ? { signal: post.signal } : {}),
    failed: (cause) =>
      post.signal?.aborted ? abortError(post, cause) : new A2AError({ kind: 'network', message: `${post.name}'s answer broke off`, cause }),
  });
  try {
    return { status: response.status, json: JSON.parse(text) as unknown };
  } catch {
    // No body, or one that is not JSON.
    return { status: response.status, json: undefined };
  }
}

/** The signal ended the request: its timeout (`timeout`, retryable) or a caller that left (`aborted`). */
function abortError(post: EndpointPost, cause: unknown): A2AError {
  const reason: unknown = post.signal?.reason;
  const timedOut = reason instanceof Error && reason.name === 'TimeoutError';
  return timedOut
    ? new A2AError({ kind: 'timeout', message: `${post.name} did not answer in time`, cause })
    : new A2AError({ kind: 'aborted', message: `${post.name}: the request was abandoned`, cause });
}

/** An endpoint's answer the client cannot use: an `auth` error (no credential came of it), naming the endpoint. */
export function endpointError(name: string, what: string, status?: number): A2AError {
  return new A2AError({
    kind: 'auth',
    message: `${name} ${what}`,
    auth: { sent: 'none' },
    ...(status === undefined ? {} : { status }),
  });
}
