/**
 * The gateway's one client (tests, chaos runs and the command line): it sends a message and follows
 * its turn to the end, losing neither. A browser app does the same with `fetch`. Its command line is
 * client.mjs; the bodies of an answer and an action, client-bodies.mjs; how it gives up, client-errors.mjs.
 *
 * - **The message, once.** Its id is the client's (`messageId`), kept until the agent names the
 *   task. A stream that breaks before that is followed up by asking for the message
 *   (`GET …/events?message=ID`, the library's resume by messageId): its turn if the agent got it,
 *   else `not-received`, and only then is it sent again, with the same id. A message given with
 *   its id (sent before, its turn not seen) is asked for first.
 * - **The reply, whole and once.** From the task on, each event's id is a position; a broken stream
 *   is asked again with `Last-Event-ID`, through any replica, and brings exactly the rest.
 * - **A replica that cannot take it now** (its streams at their bound, or shutting down) answers 503
 *   with `X-Message-Taken: no` before taking the message: it counts as not sent, and goes again
 *   after its `Retry-After` (and up to half more, at random), which does not grow the backoff.
 * - **A2UI surfaces, once.** `surface` and `surface-refused` frames go to `onEvent` like the others; a
 *   stream resumed at another replica gives a surface's messages again (that replica did not see them):
 *   what the caller was given already is dropped (client-surfaces.mjs; `replayed` counts it), so a
 *   renderer is handed each `createSurface` once. The `end`'s `surfaces` are each surface as it stands.
 * - **An answer, an A2UI action.** A message carries a text, or the fields client-bodies.mjs makes: it goes
 *   as a text goes, once, by its id. A 4xx other than 408, 425, 429 (a second answer's 409) is {@link GatewayRefused}.
 * - **Outages.** Reconnects back off exponentially with jitter, for `budgetMs` without progress
 *   (default 3 minutes); past it a {@link GatewayUnreachable} error carries the position and the
 *   message id to resume from later. A stream silent for two heartbeats (`X-Heartbeat-Ms`) is dead.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { SurfaceReplays } from './client-surfaces.mjs';
import { GatewayRefused, GatewayUnreachable } from './client-errors.mjs';

/** How long the client keeps trying without progress, unless told. */
export const DEFAULT_BUDGET_MS = 180_000;
/** The heartbeat assumed until a stream announces its own. */
const DEFAULT_HEARTBEAT_MS = 5_000;
/** The first pause before a reconnect, and the longest. */
const BACKOFF = { initialMs: 250, maxMs: 5_000 };
/** Statuses that are worth asking again: the gateway or the balancer could not serve now. */
const TRANSIENT = new Set([408, 425, 429]);

/** The longest `Retry-After` heeded: a gateway asking for more is asked again sooner. */
const MAX_RETRY_AFTER_MS = 30_000;

/**
 * Follows one turn to its end through the gateway (or the balancer) at `options.gateway`.
 * @param {import('./client-follow.d.mts').FollowOptions} options
 * @returns {Promise<import('./client-follow.d.mts').Followed>}
 */
export async function followTurn(options) {
  const fetchImpl = options.fetch ?? fetch;
  const random = options.random ?? Math.random;
  const budgetMs = options.budgetMs ?? DEFAULT_BUDGET_MS;
  const base = new URL(`threads/${encodeURIComponent(options.thread)}/`, options.gateway);
  if (options.text !== undefined && options.action !== undefined) throw new TypeError('a message carries a text or an action, not both');
  const sending = options.text !== undefined || options.action !== undefined;
  /** What the message answers: the question's task, its generation, the requests for input (all with a task only). */
  const answering = options.taskId
    ? {
        taskId: options.taskId,
        ...(options.ifGenerationMatch === undefined ? {} : { ifGenerationMatch: options.ifGenerationMatch }),
        ...(options.elicitationIds?.length ? { elicitationIds: options.elicitationIds } : {}),
      }
    : {};
  const messageId = sending ? (options.messageId ?? randomUUID()) : undefined;
  /** @type {import('./client-follow.d.mts').Followed} */
  const result = { reply: '', reconnects: 0, resent: 0, replayed: 0, replicas: [], recoveries: [], messageId, lastEventId: options.from };
  /** The A2UI the caller was given, across streams: a resumed stream's repeats are dropped. */
  const surfaces = new SurfaceReplays();
  let heartbeatMs = options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS;
  /** The message may have reached a replica (or did, with a caller's id): it is asked for before it is sent again. */
  let maySent = options.messageId !== undefined;
  /** When the message was first posted (epoch ms): a lookup for it lists the thread's tasks since then, and waits its grace from then. */
  let sentAt = options.messageId !== undefined ? options.sentAt : undefined;
  let attempt = 0;
  let lastProgress = Date.now();
  /** When the last event came, and whether a stream broke since (for `recoveries`). */
  let lastEventAt = 0;
  let broken = false;
  /**
   * Set while the request is the message's POST: what `sentAt` was before it, to go back to when the replica did not take it.
   * @type {{ sentAt: number | undefined } | undefined}
   */
  let posting;
  /** The pause the gateway asked for (`Retry-After`), instead of the backoff's. */
  let retryAfterMs = 0;
  for (let requests = 0; ; requests++) {
    if (requests > 0) result.reconnects += 1;
    posting = undefined;
    retryAfterMs = 0;
    const headers = { accept: 'text/event-stream', ...(options.token ? { authorization: `Bearer ${options.token}` } : {}) };
    /** @type {{ url: URL; method: string; body?: string }} */
    let request;
    if (result.lastEventId !== undefined) {
      request = { url: new URL('events', base), method: 'GET' };
      headers['last-event-id'] = result.lastEventId;
    } else if (sending && !maySent) {
      posting = { sentAt };
      const said = options.action === undefined ? { text: options.text } : { action: options.action, surface: options.surface };
      const body = { ...said, messageId, ...answering };
      request = { url: new URL('messages', base), method: 'POST', body: JSON.stringify(body) };
      headers['content-type'] = 'application/json';
      maySent = true;
      sentAt ??= Date.now();
    } else {
      const sent = sentAt === undefined ? '' : `&sent=${sentAt}`;
      request = { url: new URL(sending ? `events?message=${encodeURIComponent(messageId ?? '')}${sent}` : 'events', base), method: 'GET' };
    }
    // One controller per request: the caller's signal, or a silence of two heartbeats, ends it.
    const controller = new AbortController();
    const abort = () => controller.abort();
    options.signal?.addEventListener('abort', abort, { once: true });
    let silence = setTimeout(abort, 2 * heartbeatMs);
    let progressed = false;
    let notReceived = false;
    /** The gateway could not tell whether the agent got the message: it stays pending, asked for again, never sent again. */
    let unknown = false;
    try {
      const init = { method: request.method, headers, signal: controller.signal, ...(request.body ? { body: request.body } : {}) };
      const response = await fetchImpl(request.url, init);
      if (response.status >= 400 && response.status < 500 && !TRANSIENT.has(response.status)) {
        const where = { lastEventId: result.lastEventId, messageId: maySent ? messageId : undefined, sentAt };
        throw new GatewayRefused(response.status, (await response.text()).slice(0, 200), where);
      }
      if (response.ok && response.body !== null) {
        heartbeatMs = Number(response.headers.get('x-heartbeat-ms')) || heartbeatMs;
        clearTimeout(silence);
        silence = setTimeout(abort, 2 * heartbeatMs);
        const replica = response.headers.get('x-replica') ?? '?';
        result.replicas.push(replica);
        options.onStream?.(replica);
        surfaces.stream();
        await readEvents(
          response.body,
          () => silence.refresh(),
          (event) => {
            progressed = true;
            if (broken) result.recoveries.push(Date.now() - lastEventAt);
            broken = false;
            lastEventAt = Date.now();
            if (event.id) result.lastEventId = event.id;
            const data = surfaces.take(JSON.parse(event.data));
            result.replayed = surfaces.dropped;
            if (data === undefined) return;
            if (data.type === 'text') result.reply = data.replace ? data.text : result.reply + data.text;
            if (data.type === 'end' && data.outcome === 'not-received') notReceived = true;
            else if (data.type === 'end' && data.outcome === 'unknown') unknown = true;
            else if (data.type === 'end') result.end = data;
            if (data.type === 'error') result.error = data.error;
            options.onEvent?.(data, event.id);
          },
        );
      } else {
        retryAfterMs = retryAfterOf(response.headers.get('retry-after'));
        // Refused before the message was read: it was not sent, and goes again as it is.
        if (posting !== undefined && response.headers.get('x-message-taken') === 'no') {
          maySent = false;
          sentAt = posting.sentAt;
        }
        await response.body?.cancel();
      }
    } catch (error) {
      if (error instanceof GatewayRefused || options.signal?.aborted) throw error;
      // Refused, reset, timed out or silent: asked again below.
    } finally {
      clearTimeout(silence);
      options.signal?.removeEventListener('abort', abort);
    }
    if (result.end !== undefined || result.error !== undefined) return result;
    if (lastEventAt > 0) broken = true;
    if (notReceived) {
      // The agent never got the message: it goes again, now, with the same id.
      maySent = false;
      result.resent += 1;
      continue;
    }
    // An answer that cannot tell is no progress: asked again after the backoff, within the budget.
    if (progressed && !unknown) {
      attempt = 0;
      lastProgress = Date.now();
    }
    if (Date.now() - lastProgress > budgetMs) {
      throw new GatewayUnreachable(`the gateway did not answer for ${Math.round(budgetMs / 1000)} s`, {
        lastEventId: result.lastEventId,
        messageId: maySent ? messageId : undefined,
        sentAt,
      });
    }
    options.onReconnect?.(result.lastEventId);
    // A pause the gateway asked for is heeded as it is (a half more at random), not doubled as a failure's is.
    const pause = retryAfterMs > 0 ? Math.round(retryAfterMs * (1 + 0.5 * random())) : backoff(attempt++, random);
    await sleep(pause, undefined, { signal: options.signal });
  }
}

/** A `Retry-After` in seconds as ms (at most {@link MAX_RETRY_AFTER_MS}); 0 when absent or a date. */
function retryAfterOf(/** @type {string | null} */ value) {
  return value !== null && /^\d{1,6}$/.test(value.trim()) ? Math.min(MAX_RETRY_AFTER_MS, Number(value) * 1000) : 0;
}

/** The pause before reconnect number `attempt` (from 0): doubling from 250 ms up to 5 s, half of it at random. */
export function backoff(/** @type {number} */ attempt, random = Math.random) {
  const ceiling = Math.min(BACKOFF.maxMs, BACKOFF.initialMs * 2 ** Math.min(attempt, 20));
  return Math.round(ceiling * (0.5 + 0.5 * random()));
}

/** Reads SSE from `body`, calling `onEvent` per event, until the stream ends or breaks; each chunk says `alive()`. */
async function readEvents(
  /** @type {ReadableStream<Uint8Array>} */ body,
  /** @type {() => void} */ alive,
  /** @type {(event: import('eventsource-parser').EventSourceMessage) => void} */ onEvent,
) {
  const parser = createParser({ onEvent });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    alive();
    parser.feed(decoder.decode(chunk, { stream: true }));
  }
}
