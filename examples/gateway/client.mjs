/**
 * The gateway's one client (tests, chaos runs and the command line): it sends a message and follows
 * its turn to the end, losing neither. A browser app does the same with `fetch`.
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
 * - **An answer to a question.** An `input-required` or `auth-required` end carries its `interrupt`
 *   (the question's task, its generation, the agent's requests for input): {@link answerFields} makes
 *   the fields of the answer's message from it, so the answer goes only while the question is open. A
 *   second answer to a question answered already (another tab, another device) is refused, 409:
 *   {@link GatewayRefused}, never a new task (against an agent of A2A 1.1, which keeps generations).
 * - **A2UI surfaces, once.** `surface` and `surface-refused` frames go to `onEvent` like the others; a
 *   stream resumed at another replica gives a surface's messages again (that replica did not see them):
 *   what the caller was given already is dropped (client-surfaces.mjs; `replayed` counts it), so a
 *   renderer is handed each `createSurface` once. The `end`'s `surfaces` are each surface as it stands.
 * - **An A2UI action.** {@link actionFields} makes the fields of a message that carries a person's action
 *   on a surface instead of a text (`action`, and `surface`: the surface's creation message, which the
 *   stateless replica needs to build the action in the surface's version). It goes as a text message
 *   goes: once, by its id, its turn (the agent's answer, as `surface` frames on that surface) followed.
 * - **Outages.** Reconnects back off exponentially with jitter, for `budgetMs` without progress
 *   (default 3 minutes); past it a {@link GatewayUnreachable} error carries the position and the
 *   message id to resume from later. A stream silent for two heartbeats (`X-Heartbeat-Ms`) is dead.
 *
 *     node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE…] [--token T]
 *       [--task ID [--generation N] [--elicitation ID]…] [--from ID] [--message-id ID [--sent-at MS]] [--budget SECONDS]  (the token: $A4H_GATEWAY_TOKEN)
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { exampleArgs } from '../args.mjs';
import { createParser } from 'eventsource-parser';
import { startedAs } from '../started-as.mjs';
import { SurfaceReplays, surfaceNotice } from './client-surfaces.mjs';

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

/** The client gave up (its budget passed without progress): what to resume from. */
export class GatewayUnreachable extends Error {
  /** @param {string} message @param {{ lastEventId?: string; messageId?: string; sentAt?: number }} where */
  constructor(message, where) {
    super(message);
    this.name = 'GatewayUnreachable';
    this.lastEventId = where.lastEventId;
    this.messageId = where.messageId;
    this.sentAt = where.messageId === undefined ? undefined : where.sentAt;
  }
}

/** The gateway refused the request (4xx): asking again would not help; a 401 (a token expired) with a fresh token may. */
export class GatewayRefused extends GatewayUnreachable {
  /** @param {number} status @param {string} message @param {{ lastEventId?: string; messageId?: string; sentAt?: number }} where */
  constructor(status, message, where) {
    super(`the gateway refused: ${status} ${message}`, where);
    this.name = 'GatewayRefused';
    this.status = status;
  }
}

/** The requests for input still open (the ones an answer answers, as the library's `answerTo` chooses them). */
const OPEN = new Set(['blocked', 'waiting']);

/**
 * The fields of a message that answers an interrupted end's question (its `interrupt`), for
 * {@link followTurn}: the question's task, the generation it was asked at (when the agent keeps them)
 * and the agent's requests for input still open. Spread them beside the answer's text.
 * @param {import('./client.d.mts').GatewayInterrupt} interrupt
 * @returns {import('./client.d.mts').AnswerFields}
 */
export function answerFields(interrupt) {
  const open = (interrupt.elicitations ?? []).filter((request) => OPEN.has(request.state)).map((request) => request.id);
  return {
    taskId: interrupt.taskId,
    ...(interrupt.generation === undefined ? {} : { ifGenerationMatch: interrupt.generation }),
    ...(open.length > 0 ? { elicitationIds: open } : {}),
  };
}

/**
 * The fields of a message that carries a person's A2UI action on `surface` (a surface of an earlier turn's
 * `end.surfaces`, or the `surface` frames' messages so far), for {@link followTurn}: spread them instead of a
 * text. The timestamp is fixed now, so a message sent again is the same message.
 * @param {import('./client.d.mts').GatewaySurfaceView} surface
 * @param {import('./client.d.mts').ActionInput} input
 * @returns {import('./client.d.mts').ActionFields}
 */
export function actionFields(surface, input) {
  const creation = surface.messages.find((message) => message.kind === 'createSurface' || message.kind === 'beginRendering');
  if (creation === undefined) throw new TypeError('the surface was never created in the messages given: an action needs its creation');
  const { name, sourceComponentId, context, dataModel, timestamp } = input;
  return {
    action: {
      surfaceId: surface.surfaceId,
      name,
      sourceComponentId,
      ...(context === undefined ? {} : { context }),
      ...(dataModel === undefined ? {} : { dataModel }),
      timestamp: timestamp ?? new Date().toISOString(),
    },
    surface: creation,
  };
}

/**
 * Follows one turn to its end through the gateway (or the balancer) at `options.gateway`.
 * @param {import('./client.d.mts').FollowOptions} options
 * @returns {Promise<import('./client.d.mts').Followed>}
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
  /** @type {import('./client.d.mts').Followed} */
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

/** A word for a shell: single-quoted unless it is plain. */
const shellWord = (/** @type {string} */ word) => (/^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

/** What the command line takes. */
const USAGE =
  'Usage: node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE…] [options]\n' +
  '  --token TOKEN     a bearer token (default $A4H_GATEWAY_TOKEN; node examples/gateway/token.mjs <user> makes one)\n' +
  '  --task ID         the task of the question this message answers\n' +
  '  --generation N    with --task: the generation the question was asked at (refused, 409, once answered)\n' +
  '  --elicitation ID  with --task: a request for input this message answers (again for each)\n' +
  '  --from ID         follow a reply from a position (an id an earlier run printed)\n' +
  "  --message-id ID   the message's id: resend a message whose turn was not seen, without doubling it\n" +
  '  --sent-at MS      with --message-id: when it was first sent (ms since the epoch, as printed)\n' +
  `  --budget SECONDS  how long to keep trying without progress (default ${DEFAULT_BUDGET_MS / 1000})\n`;

/** The flags of an answer's fields: `--task`, `--generation`, an `--elicitation` per request. */
function answerFlags(/** @type {import('./client.d.mts').AnswerFields} */ fields) {
  return [
    '--task',
    fields.taskId,
    ...(fields.ifGenerationMatch === undefined ? [] : ['--generation', String(fields.ifGenerationMatch)]),
    ...(fields.elicitationIds ?? []).flatMap((id) => ['--elicitation', id]),
  ];
}

/** The command line: the reply on stdout; the replica serving each stream, reconnects and how to go on, on stderr. */
async function main() {
  const { values, positionals } = exampleArgs(USAGE.trimEnd(), {
    allowPositionals: true,
    options: {
      token: { type: 'string' },
      task: { type: 'string' },
      generation: { type: 'string' },
      elicitation: { type: 'string', multiple: true },
      from: { type: 'string' },
      'message-id': { type: 'string' },
      'sent-at': { type: 'string' },
      budget: { type: 'string' },
    },
  });
  const [gateway, thread, ...words] = positionals;
  const budget = Number(values.budget ?? DEFAULT_BUDGET_MS / 1000);
  const sentAt = values['sent-at'] !== undefined && /^\d{1,15}$/.test(values['sent-at']) ? Number(values['sent-at']) : undefined;
  const generation = values.generation !== undefined && /^[1-9]\d{0,14}$/.test(values.generation) ? Number(values.generation) : undefined;
  const elicitations = values.elicitation ?? [];
  const badAnswer = (values.generation !== undefined && generation === undefined) || ((generation || elicitations.length) && !values.task);
  if (!gateway || !thread || !(budget > 0) || (values['sent-at'] !== undefined && sentAt === undefined) || badAnswer) {
    process.stderr.write(USAGE);
    process.exitCode = 2;
    return;
  }
  const text = words.length > 0 ? words.join(' ') : undefined;
  const again = (/** @type {string[]} */ extra) =>
    ['node examples/gateway/client.mjs', gateway, thread, ...extra].map((w, i) => (i === 0 ? w : shellWord(w))).join(' ');
  let shown = 0;
  /** The surfaces told of: once each. */
  const told = new Set();
  try {
    const followed = await followTurn({
      gateway,
      thread,
      budgetMs: budget * 1000,
      ...(text !== undefined ? { text } : {}),
      ...(values.token || process.env.A4H_GATEWAY_TOKEN ? { token: values.token || process.env.A4H_GATEWAY_TOKEN } : {}),
      ...(values.task ? { taskId: values.task } : {}),
      ...(generation === undefined ? {} : { ifGenerationMatch: generation }),
      ...(elicitations.length > 0 ? { elicitationIds: elicitations } : {}),
      ...(values.from ? { from: values.from } : {}),
      ...(values['message-id'] ? { messageId: values['message-id'] } : {}),
      ...(sentAt !== undefined ? { sentAt } : {}),
      onStream: (replica) => process.stderr.write(`[via replica ${replica}]\n`),
      onEvent: (event) => {
        const notice = surfaceNotice(told, event);
        if (notice !== undefined) process.stderr.write(`${shown > 0 ? '\n' : ''}${notice}\n`);
        if (event.type !== 'text') return;
        process.stdout.write(event.replace ? `\n${event.text}` : String(event.text));
        shown += String(event.text).length;
      },
      onReconnect: (id) => process.stderr.write(`\n[stream lost; reconnecting${id ? ` from ${id}` : ''}]\n`),
    });
    if (followed.error) {
      process.stderr.write(`\nerror: ${followed.error.message}\n`);
      process.exitCode = 1;
      return;
    }
    process.stdout.write(shown === 0 && followed.end ? `${followed.end.text}\n` : '\n');
    process.stderr.write(`[${followed.end?.outcome}; replicas: ${followed.replicas.join(' → ')}]\n`);
    const interrupt = followed.end?.interrupt;
    // An input-required or auth-required end: its question's task, generation and open requests, as flags.
    if (interrupt) process.stderr.write(`To answer: ${again([...answerFlags(answerFields(interrupt)), '<your answer>'])}\n`);
  } catch (error) {
    if (!(error instanceof GatewayUnreachable)) throw error;
    const answering = values.task
      ? answerFlags({
          taskId: values.task,
          ...(generation === undefined ? {} : { ifGenerationMatch: generation }),
          ...(elicitations.length > 0 ? { elicitationIds: elicitations } : {}),
        })
      : [];
    const sent = error.sentAt === undefined ? [] : ['--sent-at', String(error.sentAt)];
    const message = error.messageId ? [...answering, '--message-id', error.messageId, ...sent, text ?? ''] : [];
    const resume = error.lastEventId ? ['--from', error.lastEventId] : message;
    const later = error instanceof GatewayRefused ? (error.status === 401 ? ' With a fresh token' : '') : ' Later';
    process.stderr.write(`\nclient: ${error.message}.${resume.length && later ? `${later}, go on with: ${again(resume)}` : ''}\n`);
    process.exitCode = 1;
  }
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
