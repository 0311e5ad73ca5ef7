import { A2AError } from '../../../errors.js';
import type { SecuritySchemeInfo } from '../../../port/card.js';
import { authDetails, httpAuthError, safeChallenge } from '../../http/credentials/auth-error.js';
import { headersTooLarge, HEADERS_TOO_LARGE, type SentRequest } from './headers-too-large.js';
import type { Applied, ApplyCall, CredentialPlan } from '../../http/credentials/plan.js';
import { callerOf } from '../../http/credentials/callers.js';
import { onceMoreAfter401, type Sent } from './auth-retry.js';

/** Same-origin 307/308 redirects followed with credentials, at most. */
const MAX_REDIRECTS = 3;

/** The URL a fetch is asked for. */
export const urlOf = (input: Parameters<typeof fetch>[0]): string =>
  typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;

const originOf = (url: string): string | undefined => {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
};

/** `init` with `headers` added (over the caller's own of the same name). */
function withHeaders(init: RequestInit | undefined, headers: Record<string, string>): RequestInit {
  const merged = new Headers(init?.headers);
  for (const [name, value] of Object.entries(headers)) merged.set(name, value);
  return { ...init, headers: Object.fromEntries(merged), redirect: 'manual' };
}

/** What an agent's fetch knows: the card's security schemes and the credentials for its interface, if any. */
export interface AgentAccess {
  /** Undefined for the fetch of the card itself. */
  schemes?: readonly SecuritySchemeInfo[];
  plan?: CredentialPlan;
}

/**
 * The fetch of one agent's calls. It adds the credentials of `access.plan` to requests on the plan's
 * origin, refuses a request to any other origin (an `auth` error: nothing is sent; nothing the client
 * does asks that, so it is a fault, not a request to send without credentials), and never follows a
 * redirect with them except a same-origin 307/308. A request refused with HTTP 401 is made once
 * more with fresh credentials when the plan has any to give ({@link onceMoreAfter401}); the
 * credentials are made for the call's caller (found by its abort signal). It turns HTTP 401 and 403 into `auth` errors
 * naming the card's schemes, what kind of credential was sent and the `WWW-Authenticate` challenge
 * (never a value), and HTTP 431 into an `http` error saying which of the headers it sent are large.
 * Everything else passes through as it came.
 */
export function agentFetch(base: typeof fetch, access: AgentAccess): typeof fetch {
  const { plan, schemes } = access;
  return async (input, init) => {
    const url = urlOf(input);
    let applied: Applied | undefined;
    let sent: RequestInit | undefined = init;
    let target = url;
    let response: Response;
    if (plan === undefined) {
      response = await base(input, init);
    } else {
      if (originOf(url) !== plan.origin) throw elsewhere(plan.origin, url, schemes);
      const caller = callerOf(init?.signal);
      const call = caller === undefined ? {} : { caller };
      ({
        response,
        applied,
        init: sent,
        target,
      } = await onceMoreAfter401((again) => withCredentials(base, plan, input, init, again), plan, call, input));
    }
    if (response.status === HEADERS_TOO_LARGE) {
      await response.body?.cancel().catch(() => undefined);
      throw headersTooLarge(sentRequest(input, sent, target, applied));
    }
    if (response.status !== 401 && response.status !== 403) return response;
    const challenge = safeChallenge(response.headers.get('www-authenticate'), applied?.values ?? []);
    await response.body?.cancel().catch(() => undefined);
    throw httpAuthError(response.status, authDetails(schemes, applied?.sent ?? 'none', challenge));
  };
}

/**
 * One request with the plan's credentials (made for `call`), following same-origin 307/308
 * redirects only. Our callers (the SDK's transports, our reader, the card fetch) pass a URL; a
 * Request keeps its method and body on the first hop only.
 */
async function withCredentials(
  base: typeof fetch,
  plan: CredentialPlan,
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  call: ApplyCall,
): Promise<Sent> {
  let target = urlOf(input);
  for (let hop = 0; ; hop++) {
    const applied = await plan.apply(target, call);
    const sent = withHeaders(init, applied.headers);
    const response = await base(input instanceof Request && hop === 0 ? new Request(applied.url, input) : applied.url, sent);
    const location = response.headers.get('location');
    const redirected = response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400 && location !== null);
    if (!redirected) return { response, applied, init: sent, target };
    await response.body?.cancel().catch(() => undefined);
    const next = location === null ? undefined : new URL(location, target).href;
    if (
      next === undefined ||
      originOf(next) !== plan.origin ||
      (response.status !== 307 && response.status !== 308) ||
      hop >= MAX_REDIRECTS
    ) {
      throw new A2AError({
        kind: 'http',
        status: response.status,
        message: `the agent answered a request carrying credentials with a redirect (HTTP ${response.status}${next && originOf(next) !== plan.origin ? ' to another origin' : ''}); not followed with credentials`,
      });
    }
    target = next;
  }
}

/** A request for an agent to another origin than its credentials': refused before anything is sent. */
function elsewhere(origin: string, url: string, schemes: readonly SecuritySchemeInfo[] | undefined): A2AError {
  const other = originOf(url) ?? 'a URL that does not parse';
  return new A2AError({
    kind: 'auth',
    retryable: false,
    auth: authDetails(schemes, 'none'),
    message: `a request for the agent at ${origin} was to go to ${other}: refused, nothing was sent (its credentials go to their own origin only)`,
  });
}

/** What went with the request answered 431: its URL and every header given to the fetch, and which of them are the credentials'. */
function sentRequest(
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
  target: string,
  applied: Applied | undefined,
): SentRequest {
  const headers = new Headers(input instanceof Request ? input.headers : undefined);
  for (const [name, value] of new Headers(init?.headers)) headers.set(name, value);
  return {
    url: applied?.url ?? target,
    headers,
    credentialHeaders: applied === undefined ? [] : Object.keys(applied.headers),
    credentialQueryBytes: applied === undefined ? 0 : Math.max(0, applied.url.length - target.length),
  };
}
