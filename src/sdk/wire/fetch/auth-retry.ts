import type { ApplyCall, Applied, CredentialPlan } from '../../http/credentials/plan.js';

/** One request as the agent's fetch sends it with credentials: the answer, and what went. */
export interface Sent {
  response: Response;
  applied: Applied;
  init: RequestInit | undefined;
  /** The URL it went to last (after same-origin redirects). */
  target: string;
}

/** A body the fetch can send a second time as it is: none, a string, bytes, form fields. */
function replayable(input: Parameters<typeof fetch>[0], init: RequestInit | undefined): boolean {
  if (input instanceof Request) return false;
  const body = init?.body;
  return (
    body === undefined ||
    body === null ||
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body)
  );
}

/**
 * A request refused with HTTP 401, made once more with fresh credentials: when the plan can give
 * fresh ones (an OAuth token, which is dropped from the cache first; a function, told it is a retry)
 * and the body can be sent again. A 401 is an answer before any event of the call (its headers), so
 * nothing the agent said is lost or doubled. The second answer stands, whatever it is: a second 401
 * is the `auth` error. Any other answer, or a plan with nothing fresh to give, is left as it was.
 */
export async function onceMoreAfter401(
  send: (call: ApplyCall) => Promise<Sent>,
  plan: CredentialPlan,
  call: ApplyCall,
  input: Parameters<typeof fetch>[0],
): Promise<Sent> {
  const first = await send(call);
  if (first.response.status !== 401 || !plan.renewable || !replayable(input, first.init)) return first;
  await first.response.body?.cancel().catch(() => undefined);
  plan.refused(first.applied);
  return send({ ...call, retry: true });
}
