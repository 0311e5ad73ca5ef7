import { defer, type Observable } from 'rxjs';
import { A2AError } from '../errors.js';
import { silentLogger, type Logger } from '../logger.js';
import type { PushSource, PushTarget } from '../port/push.js';
import type { AgentEvent } from '../port/types.js';
import { pushEvent } from '../sdk/push-payload.js';
import { pushCredentials, type PushCredentialOptions } from './credential.js';
import { PushHub } from './hub.js';
import { RateLimit } from './rate.js';
import { RecentKeys } from './recent.js';
import { eventIds, PUSH_CONFIG_ID, type PushOutcome } from './verdicts.js';

export type { PushOutcome } from './verdicts.js';

/** What {@link createPushReceiver} takes. */
export interface PushReceiverOptions extends PushCredentialOptions {
  /** The receiver's URL as agents reach it (`https://gateway.example/a2a/push`): what messages ask them to post to. */
  url: string;
  /** The largest body read (bytes); a larger one is refused (413) unread. 2 MiB by default. */
  maxBodyBytes?: number;
  /** Pushes one thread may send: `perSecond` on average, `burst` at once (20 and 200 by default); past that, 429. */
  rate?: { perSecond?: number; burst?: number };
  /**
   * Bodies read at once; past that, 503 with `Retry-After: 1` (a sender that does not retry, as the SDK's, loses
   * that push until the turn's next check). 1,024 by default: a burst of completions is thousands of pushes.
   */
  maxConcurrent?: number;
  /** The pushes remembered to drop one delivered again: at most `max` (100,000), each for `ttlMs` (an hour). */
  duplicates?: { max?: number; ttlMs?: number };
  /** Told of each checked push that no turn of this process follows (another replica's, or a turn that ended). */
  onUnclaimed?: (push: UnclaimedPush) => void;
  /** Where refusals are told (never a credential). */
  logger?: Logger;
}

/** A checked push no turn of this process follows. */
export interface UnclaimedPush {
  /** The thread the credential and the push both name. */
  contextId: string;
  /** The task it is about. */
  taskId: string;
  /** What it says. */
  event: AgentEvent;
}

/** One request to the receiver, as any HTTP server has it. */
export interface PushRequest {
  /** The HTTP method. */
  method: string;
  /** A request header by its lower-case name. */
  header(name: string): string | undefined;
  /** The body, read to its end when it is at most `maxBytes`; undefined when it is larger (the rest unread). */
  body(maxBytes: number): Promise<Uint8Array | undefined>;
}

/** The receiver's answer: what to send back, and what to do once it is sent. */
export interface PushAnswer {
  /** The HTTP status: 204 when taken (a duplicate too), else the refusal's. */
  status: number;
  /** Headers to send (`Retry-After`, `WWW-Authenticate`, `Allow`). */
  headers: Record<string, string>;
  /** What the receiver made of the request. */
  outcome: PushOutcome;
  /** Hands the push to the turns that follow its thread: call it once the answer is sent (the agent is not kept waiting). */
  deliver?: () => void;
}

/** A webhook for agents' push notifications, and the turns' source of them. */
export interface PushReceiver extends PushSource {
  /** Checks one request and says what to answer (see `pushHandler` in `a4h-a2a/node` for Node's http and express). */
  receive(request: PushRequest): Promise<PushAnswer>;
  /** What it took and refused so far, by outcome; how many threads are followed; how many pushes it remembers. */
  stats(): PushStats;
}

/** A receiver's counters. */
export interface PushStats {
  /** Requests by outcome. */
  outcomes: Partial<Record<PushOutcome, number>>;
  /** Threads a turn follows now. */
  following: number;
  /** Pushes remembered for duplicates (at most `duplicates.max`). */
  remembered: number;
}

/**
 * A receiver for agents' push notifications (A2A v1.0 §4.3.3, §13.2). It checks, in this order and
 * before it reads a body: the method, the credential (the token its targets carry, derived from the
 * identity secret: any replica with the secret checks it, nothing is stored), the thread's rate, the
 * bodies in flight, the media type; then the body (bounded), the event (a v1.0 `StreamResponse` or a
 * v0.3 object), that the event's task is of the thread the credential names, and that the same push
 * was not taken already. It answers 204 at once and hands the event to the turns following the thread.
 */
export function createPushReceiver(options: PushReceiverOptions): PushReceiver {
  const url = checkedUrl(options.url);
  const now = options.now ?? Date.now;
  const credentials = pushCredentials(options);
  const maxBodyBytes = positive(options.maxBodyBytes, 2 * 1024 * 1024, 'maxBodyBytes');
  const rate = new RateLimit(
    positive(options.rate?.perSecond, 20, 'rate.perSecond'),
    positive(options.rate?.burst, 200, 'rate.burst'),
    10_000,
    now,
  );
  const maxConcurrent = positive(options.maxConcurrent, 1_024, 'maxConcurrent');
  const recent = new RecentKeys(
    positive(options.duplicates?.max, 100_000, 'duplicates.max'),
    positive(options.duplicates?.ttlMs, 60 * 60 * 1000, 'duplicates.ttlMs'),
    now,
  );
  const logger = options.logger ?? silentLogger;
  const hub = new PushHub();
  const outcomes: Partial<Record<PushOutcome, number>> = {};
  let reading = 0;

  const answer = (outcome: PushOutcome, status: number, headers: Record<string, string> = {}, deliver?: () => void): PushAnswer => {
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    if (status >= 400) logger.debug({ outcome, status }, 'a push was refused');
    return deliver === undefined ? { status, headers, outcome } : { status, headers, outcome, deliver };
  };

  const receive = async (request: PushRequest): Promise<PushAnswer> => {
    if (request.method !== 'POST') return answer('method', 405, { allow: 'POST' });
    const token = tokenOf(request);
    if (token === undefined) return answer('no-credential', 401, { 'www-authenticate': 'Bearer realm="a2a-push"' });
    const contextId = await credentials.verify(token);
    if (contextId === undefined)
      return answer('bad-credential', 401, { 'www-authenticate': 'Bearer realm="a2a-push", error="invalid_token"' });
    const waitMs = rate.take(contextId);
    if (waitMs > 0) return answer('flood', 429, { 'retry-after': String(Math.ceil(waitMs / 1000)) });
    if (!jsonType(request.header('content-type'))) return answer('media-type', 415);
    if (reading >= maxConcurrent) return answer('busy', 503, { 'retry-after': '1' });
    reading++;
    let body: Uint8Array | undefined;
    try {
      body = await request.body(maxBodyBytes);
    } catch {
      return answer('malformed', 400);
    } finally {
      reading--;
    }
    if (body === undefined) return answer('too-large', 413);
    let event: AgentEvent;
    try {
      event = pushEvent(JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(body)));
    } catch {
      return answer('malformed', 400);
    }
    const ids = eventIds(event);
    if (ids === undefined) return answer('malformed', 400);
    if (ids.contextId !== contextId) return answer('other-thread', 403);
    // An appended chunk without a generation has no identity of its own: the same bytes again may be the
    // agent's next chunk ("of ", "\n\n"), so it is never taken for a duplicate (the turn's end reads the reply whole).
    if (remembered(event) && recent.seen(`${contextId}\n${await digest(body)}`)) return answer('duplicate', 204);
    return answer('taken', 204, {}, () => {
      if (hub.deliver(contextId, event)) return;
      outcomes.unclaimed = (outcomes.unclaimed ?? 0) + 1;
      options.onUnclaimed?.({ contextId, taskId: ids.taskId, event });
    });
  };

  return {
    receive,
    target: (contextId: string): Observable<PushTarget> =>
      defer(async () => ({ url, token: await credentials.issue(contextId), id: PUSH_CONFIG_ID })),
    events: (contextId: string) => hub.events(contextId),
    stats: () => ({ outcomes: { ...outcomes }, following: hub.threads, remembered: recent.size }),
  };
}

/** A push the same bytes of which, again, are a duplicate: anything but an appended chunk that carries no generation (A2A 1.1). */
function remembered(event: AgentEvent): boolean {
  return !(event.kind === 'artifact' && event.append && event.generation === undefined);
}

/** The credential: `Authorization: Bearer …` (v1.0 `authentication`) or `X-A2A-Notification-Token` (the `token`). */
function tokenOf(request: PushRequest): string | undefined {
  const authorization = request.header('authorization');
  const bearer = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  return bearer ?? request.header('x-a2a-notification-token') ?? undefined;
}

/** `application/a2a+json` (v1.0) or `application/json` (v0.3 senders), parameters allowed. */
function jsonType(contentType: string | undefined): boolean {
  const type = contentType?.split(';')[0]?.trim().toLowerCase();
  return type === 'application/a2a+json' || type === 'application/json';
}

async function digest(body: Uint8Array): Promise<string> {
  const hash = new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', body as Uint8Array<ArrayBuffer>));
  let hex = '';
  for (const byte of hash) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

function checkedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.href;
  } catch {
    // said below
  }
  throw new A2AError({ kind: 'config', operation: 'options', message: 'push.url must be an http(s) URL: the address agents post to' });
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new A2AError({ kind: 'config', operation: 'options', message: `push receiver: ${name} must be a positive number` });
  }
  return value;
}
