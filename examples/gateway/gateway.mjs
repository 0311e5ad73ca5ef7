/**
 * A chat gateway replica on a4h-a2a: a user's message in, the agent's turn out as Server-Sent Events
 * whose ids are reply positions, so a client that loses its stream (a replica killed, a deploy, an
 * outage) reconnects through the load balancer to any replica and gets exactly the rest. Replicas
 * share `A4H_IDENTITY_SECRET` and the identity provider's keys, nothing else: no session store, no
 * sticky routing.
 *
 *     A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [--port N] [--name NAME]
 *       [--jwks FILE|URL --issuer ISS --audience AUD] [--heartbeat-ms N] [--max-buffered-bytes N] [--max-streams N]
 *       [--messages-per-minute N] [--turns-per-person N] [--a2ui-catalogs ID,ID|none]
 *       [--push http://BALANCER/ [--push-when offered|always|MS] [--push-check-ms N]]
 *
 * Every /threads request carries `Authorization: Bearer <JWT>` (auth.mjs); its `sub` is the user, and
 * the user is the handle the thread's contextId is derived with: a thread is its user's own, and a
 * task id or position of another user's thread is the library's `foreign-task`, answered 404.
 *
 *   POST /threads/KEY/messages  {"text", "messageId"?, "taskId"?, "ifGenerationMatch"?, "elicitationIds"?}
 *                               → text/event-stream: the turn; with taskId, an answer to that task's question
 *                               (the `end` frame's `interrupt`); 409 when it was answered already: this answer is not taken.
 *                               Or {"action", "surface", "messageId"?, …} instead of a text: an A2UI action on a surface
 *                               the thread's agent drew, checked (a2ui.mjs), sent as the library's `surfaceAction`
 *   GET  /threads/KEY/events    Last-Event-ID: <position> (or ?from=) → the rest of that reply;
 *                               ?message=ID → the turn of that message, or `end` outcome not-received;
 *                               neither → the thread's reply in progress (or its pending question)
 *   POST /threads/KEY/cancel    {"taskId"} → 202: CancelTask for that task, from any replica
 *   GET  /healthz               200 while serving, 404 once draining (the load balancer's check: no new sessions)
 *   POST /a2a/push/NAME         with --push: an agent's push notification (push.mjs), checked by its credential
 *                               (derived from the identity secret), not by a user's token; 204 when taken
 *
 * A replica serves at most `--max-streams` streams at once (each holds one of its connections to the
 * agent); past that a message or a resume is refused before anything goes to the agent, 503 with `Retry-After` and
 * `X-Message-Taken: no`: a message the replica takes goes to the agent at once, never waits inside it.
 *
 * Fair use (fair-use.mjs): a user may start at most `--messages-per-minute` messages a minute and hold
 * at most `--turns-per-person` streams at once in this replica; past either, 429 with `Retry-After`,
 * `X-Message-Taken: no` and a JSON body naming the limit, before anything goes to the agent.
 *
 * A client that leaves mid-reply leaves the task running (`onLeave: 'detach'`). On SIGTERM (a
 * deploy) the replica stops taking requests, fails its health check, hands over the turns whose task
 * the agent named (`close({ detach: true })`) and ends its streams; their clients reconnect elsewhere.
 *
 * A2UI: the replica's client tells an agent whose card offers A2UI the catalogs its browsers draw
 * (`--a2ui-catalogs`; default A2UI v1.0's basic catalog, the demo's and the example pages'), and an
 * action on one of the agent's surfaces comes back as a message body (a2ui.mjs).
 *
 * With `--push`, a turn's task is followed by the agent's pushes (the library's `push` option) rather
 * than a stream held to the agent: the message asks the agent to post each event to this replica's
 * receiver, `<balancer>/a2a/push/<name>`, which haproxy routes to this replica (push.mjs, haproxy.mjs).
 */
import { createServer } from 'node:http';
import { hostname } from 'node:os';
import { firstValueFrom, takeWhile } from 'rxjs';
// The built library (`npm run build`); an app would write `from 'a4h-a2a/node'`.
import { catchTurnError, createA2A } from '../../dist/node/index.js';
import { startedAs } from '../started-as.mjs';
import { tokenVerifier } from './auth.mjs';
import {
  answerOf,
  isSafeId,
  MAX_KEY,
  optionalId,
  positionOf,
  quote,
  readJson,
  REASON_CHARS,
  Refusal,
  sentAtOf,
  threadKeyOf,
} from './request.mjs';
import { streamEvents } from './stream.mjs';
import { fairUse, fairUseOf, MESSAGES_PER_MINUTE, TURNS_PER_PERSON } from './fair-use.mjs';
import { isPushPath, pushWhenOf, replicaPush } from './push.mjs';
import { devIssuer } from './token.mjs';
import { a2uiCatalogsOf, a2uiOptionOf, actionTurnOf, carriesAction, DEFAULT_A2UI_CATALOGS } from './a2ui.mjs';
import { exampleArgs, usageError } from '../args.mjs';

/** A comment on an idle stream this often; a client that hears nothing for two of them reconnects. */
export const HEARTBEAT_MS = 5_000;
/** Bytes a client may leave unread before it is dropped (it resumes by its position). */
export const MAX_BUFFERED_BYTES = 1024 * 1024;
/**
 * Streams one replica serves at once, unless told. Each holds a connection to the agent for its whole
 * reply; the replica's client pools this many and {@link LOOKUP_CONNECTIONS} more (the library's
 * default 256), so a message it takes never waits for a connection.
 */
export const MAX_STREAMS = 240;
/** Connections to the agent beyond the streams': lookups, cancels, the card. */
export const LOOKUP_CONNECTIONS = 16;
/** A request head not finished this long after its connection's request began is cut (a slow-loris client). */
export const HEADERS_TIMEOUT_MS = 10_000;
/** A whole request (head and body) not received this long after it began is cut. */
export const REQUEST_TIMEOUT_MS = 15_000;

/**
 * How often Node checks its open requests against those bounds. Node checks only every
 * `connectionsCheckingInterval` (30 s by default), so a head trickled byte by byte was cut at the
 * first check past the bound (about 29 s seen, up to 40), not at 10 s: checked every tenth of the
 * bound (at most every second), a head is cut within the bound and a tenth.
 */
export function checkingIntervalMs(/** @type {number} */ headersTimeoutMs) {
  return Math.max(10, Math.min(1_000, Math.floor(headersTimeoutMs / 10)));
}

/**
 * Starts one replica; resolves once it listens.
 * @param {import('./gateway.d.mts').GatewayOptions} options
 * @returns {Promise<import('./gateway.d.mts').Gateway>}
 */
export async function startGateway(options) {
  const agent = new URL(options.agent).href;
  const name = options.name ?? `${hostname()}:${process.pid}`;
  // The name goes into a header and an SSE comment: no control character, bounded.
  if (!isSafeId(name)) throw new Error(`a replica's name is 1 to ${MAX_KEY} characters, no control characters`);
  const log = options.log ?? (() => {});
  const verify = options.verify ?? (await tokenVerifier(options.auth ?? (await devTrust())));
  const settings = { heartbeatMs: options.heartbeatMs ?? HEARTBEAT_MS, maxBufferedBytes: options.maxBufferedBytes ?? MAX_BUFFERED_BYTES };
  // The client carries a pending question's task id: no lookup before a message goes, so a replica sends
  // what it took at once (a message sent late, after its client asked for it elsewhere, would be doubled).
  const policy = options.lookup === 'every-message' ? { waitingTaskLookup: 'every-message' } : { continueInterrupted: false };
  const maxStreams = options.maxStreams ?? MAX_STREAMS;
  if (!Number.isInteger(maxStreams) || maxStreams < 1) throw new Error('maxStreams is a whole number from 1');
  const http = { connections: maxStreams + LOOKUP_CONNECTIONS };
  if (options.push && options.client) throw new Error("push is wired into the gateway's own client: give push or client, not both");
  const push = options.push
    ? replicaPush({ ...options.push, name, secret: options.secret ?? process.env.A4H_IDENTITY_SECRET, log })
    : undefined;
  const a2a =
    options.client ??
    createA2A({
      ...(options.secret ? { identitySecret: options.secret } : {}),
      policy,
      http,
      ...(push ? { push: push.delivery } : {}),
      ...a2uiOptionOf(options.a2uiCatalogs ?? DEFAULT_A2UI_CATALOGS),
    });
  const fair = fairUse({ ...options.fairUse, log });
  let draining = false;
  /** The streams open now, each ended when its turn is handed over. */
  const streams = new Set();

  /**
   * A stream to a client, counted against the replica's bound and, until it finishes, the person's turns.
   * @param {import('node:http').ServerResponse} res @param {import('rxjs').Observable<any>} events$ @param {any} from @param {string} who
   * @param {import('./fair-use.d.mts').Admitted} admitted
   */
  const stream = (res, events$, from, who, admitted) => {
    try {
      const open = streamEvents(res, events$.pipe(catchTurnError()), {
        ...settings,
        name,
        from,
        draining: () => draining,
        log: (line) => log(`${who}: ${line}`),
        onFinish: () => {
          streams.delete(open);
          admitted.release();
        },
      });
      if (open.finished) admitted.release();
      else streams.add(open);
    } catch (error) {
      admitted.release();
      throw error;
    }
  };

  /** @param {import('node:http').IncomingMessage} req @param {import('node:http').ServerResponse} res */
  const route = async (req, res) => {
    let url;
    try {
      url = new URL(req.url ?? '', 'http://localhost');
    } catch {
      throw new Refusal(400, 'the request target is not a path');
    }
    if (url.pathname === '/healthz') {
      if (req.method !== 'GET' && req.method !== 'HEAD') throw new Refusal(405, 'only GET');
      // Draining: 404, which haproxy (`http-check disable-on-404`) takes as "no new sessions, keep the open ones".
      return reply(res, draining ? 404 : 200, { replica: name, draining, fairUse: fair.stats(), ...(push ? { push: push.stats() } : {}) });
    }
    // Before anything reads the body (the receiver bounds it), and served while draining: a push after the
    // hand-over finds no turn here and is answered 204; the replica that resumed the task has set its own receiver.
    if (push && isPushPath(url.pathname)) return push.handle(req, res);
    const match = /^\/threads\/([^/]+)\/(messages|events|cancel)$/.exec(url.pathname);
    if (match === null) throw new Refusal(404, 'not found');
    const user = await verify(req.headers.authorization);
    const thread = threadKeyOf(/** @type {string} */ (match[1]));
    if (draining) throw new Refusal(503, 'this replica is shutting down; try again', NOT_TAKEN);
    const who = `${quote(user)} ${quote(thread)}`;
    const base = { agent, handle: user, thread, onLeave: /** @type {const} */ ('detach') };
    const action = match[2];
    if (action === 'events') {
      if (req.method !== 'GET') throw new Refusal(405, 'only GET');
      const from = positionOf(req.headers['last-event-id'] ?? url.searchParams.get('from'));
      const messageId = optionalId(url.searchParams.get('message'), 'message');
      if (from && messageId) throw new Refusal(400, 'ask for a position or a message, not both');
      const sentAt = sentAtOf(url.searchParams.get('sent'), messageId);
      const what = from ? `${quote(from.taskId)} after ${from.delivered}` : messageId ? `message ${quote(messageId)}` : 'the thread';
      if (streams.size >= maxStreams) throw busy();
      const admitted = fair.admit(user, 'resume');
      log(`${who}: resume ${what}`);
      const asked = {
        ...base,
        ...(from ? { from } : {}),
        ...(messageId ? { messageId } : {}),
        ...(sentAt === undefined ? {} : { sentAt }),
      };
      return stream(res, a2a.resume(asked), from, who, admitted);
    }
    if (req.method !== 'POST') throw new Refusal(405, 'only POST');
    const body = await readJson(req);
    if (action === 'messages') {
      // A text, or an A2UI action on one of the agent's surfaces (a2ui.mjs): never both, nothing unread.
      const acted = carriesAction(body) ? actionTurnOf(body) : undefined;
      if (acted === undefined) {
        if (typeof body.text !== 'string' || body.text.trim() === '') throw new Refusal(400, NOT_A_MESSAGE);
        if (Object.keys(body).some((key) => !TEXT_BODY.has(key))) throw new Refusal(400, 'a message has a field the gateway does not read');
      }
      const messageId = optionalId(body.messageId, 'messageId');
      const answer = answerOf(body);
      // Checked here, with nothing awaited before the stream starts: no other request slips past the bounds.
      if (streams.size >= maxStreams) throw busy();
      const admitted = fair.admit(user, 'message');
      const answering = answer.taskId
        ? ` answering ${quote(answer.taskId)}${answer.ifGenerationMatch ? ` at generation ${answer.ifGenerationMatch}` : ''}`
        : '';
      const acting = acted ? ` acting ${quote(acted.name)} on surface ${quote(acted.surfaceId)}` : '';
      log(`${who}: message ${quote(messageId ?? '(no id)')}${acting}${answering}`);
      const turn = { ...base, ...(acted ? acted.fields : { text: body.text }), ...(messageId ? { messageId } : {}), ...answer };
      return stream(res, a2a.turn(turn), undefined, who, admitted);
    }
    const taskId = optionalId(body.taskId, 'taskId');
    if (taskId === undefined) throw new Refusal(400, 'the body must be {"taskId": "<the task>"}');
    log(`${who}: cancel ${quote(taskId)}`);
    // Follow the task until it is named (checked to be the user's), then leave with the default
    // onLeave: the client sends CancelTask. Another user's task ends in foreign-task: nothing sent.
    const { onLeave: _detach, ...cancelling } = base;
    await new Promise((resolve, reject) =>
      a2a
        .resume({ ...cancelling, taskId })
        .pipe(takeWhile((event) => event.type !== 'task', true))
        .subscribe({ complete: () => resolve(undefined), error: reject }),
    );
    return reply(res, 202, { taskId });
  };

  const headersTimeout = options.headersTimeoutMs ?? HEADERS_TIMEOUT_MS;
  const timeouts = {
    headersTimeout,
    requestTimeout: Math.max(REQUEST_TIMEOUT_MS, headersTimeout),
    connectionsCheckingInterval: checkingIntervalMs(headersTimeout),
  };
  const server = createServer(timeouts, (req, res) => {
    route(req, res).catch((error) => {
      const refusal =
        error instanceof Refusal
          ? error
          : error?.kind === 'foreign-task' || error?.kind === 'task-not-found'
            ? new Refusal(404, 'no such task on this thread')
            : undefined;
      if (refusal === undefined) log(`request failed: ${quote(error?.kind ?? 'error')}: ${quote(error?.message ?? error, REASON_CHARS)}`);
      if (res.headersSent) res.end();
      else
        reply(
          res,
          refusal?.status ?? 502,
          { error: refusal?.message ?? 'the agent could not be reached', ...refusal?.details },
          refusal?.headers,
        );
    });
  });
  server.on('clientError', (_error, socket) => socket.destroy());
  // The agent's card, read before the first message (which would otherwise wait for it).
  await firstValueFrom(a2a.card(agent)).catch((error) =>
    log(`the agent's card could not be read yet: ${quote(error?.message ?? error, REASON_CHARS)}`),
  );
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve(undefined);
    });
  });
  const { address, port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  /** @type {Promise<void> | undefined} */
  let closing;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${port}/`,
    name,
    close() {
      closing ??= (async () => {
        draining = true;
        const closed = new Promise((resolve) => server.close(resolve));
        server.closeIdleConnections();
        // Turns whose task the agent named are handed over (no CancelTask); the others are waited for.
        await a2a.close({ detach: true });
        for (const open of streams) open.end();
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

/** The refusal of a message body that is neither a text nor an action. */
const NOT_A_MESSAGE = 'the body must be {"text": "<a message>"} or an A2UI action {"action": {…}, "surface": {…}}';
/** The fields a text message's body may have. */
const TEXT_BODY = new Set(['text', 'messageId', 'taskId', 'ifGenerationMatch', 'elicitationIds']);

/** What a refusal before a message was read says: the replica did not take it, and when to try again. */
const NOT_TAKEN = { 'Retry-After': '1', 'X-Message-Taken': 'no' };

/** The refusal of a request past the replica's streams: nothing of it was taken; another replica, or this one in a second, serves it. */
function busy() {
  return new Refusal(503, 'this replica serves its most streams; try again', NOT_TAKEN);
}

/** The development issuer (token.mjs), which replicas trust unless told another. */
async function devTrust() {
  const issuer = await devIssuer();
  return { jwks: issuer.jwksFile, issuer: issuer.issuer, audience: issuer.audience };
}

/** A JSON answer. @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value @param {Record<string, string>} [headers] */
function reply(res, status, value, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(value));
}

/** The replica's command line: runs until SIGTERM or SIGINT, then hands its turns over and exits 0. */
async function main() {
  const usage =
    'Usage: A4H_IDENTITY_SECRET=… node examples/gateway/gateway.mjs --agent URL [options]\n' +
    '  --agent URL                 the A2A agent (required)\n' +
    '  --port N, --host ADDRESS    where to listen (default a free port on 127.0.0.1, printed)\n' +
    '  --name NAME                 this replica in logs and the X-Replica header (default host:pid)\n' +
    '  --jwks FILE|URL             the identity provider’s keys, with --issuer and --audience\n' +
    '                              (default: the development issuer of token.mjs)\n' +
    `  --heartbeat-ms N            a comment on an idle stream this often (default ${HEARTBEAT_MS})\n` +
    `  --max-buffered-bytes N      unread bytes before a client is dropped (default ${MAX_BUFFERED_BYTES})\n` +
    `  --max-streams N             streams served at once; past them 503 + Retry-After (default ${MAX_STREAMS})\n` +
    `  --messages-per-minute N     messages one user may start a minute here; past it 429 + Retry-After (default\n` +
    `                              ${MESSAGES_PER_MINUTE}, or $A4H_GATEWAY_MESSAGES_PER_MINUTE; 0: no limit)\n` +
    `  --turns-per-person N        streams one user may hold at once here; past it 429 + Retry-After (default\n` +
    `                              ${TURNS_PER_PERSON}, or $A4H_GATEWAY_TURNS_PER_PERSON; 0: no limit)\n` +
    '  --lookup every-message      look for a pending question before every message (for clients that do not carry\n' +
    '                              its task id; a message then waits a round trip before it goes)\n' +
    '  --a2ui-catalogs IDS         the A2UI catalogs its browsers draw, told to agents whose card offers A2UI: ids\n' +
    `                              separated by commas, or none (default ${DEFAULT_A2UI_CATALOGS.join(',')},\n` +
    '                              or $A4H_GATEWAY_A2UI_CATALOGS)\n' +
    "  --push URL                  follow tasks by the agent's pushes, posted to URL/a2a/push/NAME: URL is the load\n" +
    "                              balancer's origin as the agent reaches it, which routes that path to this replica\n" +
    '  --push-when WHEN            offered (agents whose card offers push; default), always, or MS (a turn that ran\n' +
    '                              that long hands its task over to pushes)\n' +
    '  --push-check-ms N           a GetTask this often while a turn waits for pushes (default 30000)\n';
  const { values } = exampleArgs(usage.trimEnd(), {
    options: {
      agent: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      name: { type: 'string' },
      jwks: { type: 'string' },
      issuer: { type: 'string' },
      audience: { type: 'string' },
      'heartbeat-ms': { type: 'string' },
      'max-buffered-bytes': { type: 'string' },
      'max-streams': { type: 'string' },
      'messages-per-minute': { type: 'string' },
      'turns-per-person': { type: 'string' },
      lookup: { type: 'string' },
      push: { type: 'string' },
      'push-when': { type: 'string' },
      'push-check-ms': { type: 'string' },
      'a2ui-catalogs': { type: 'string' },
    },
  });
  if (!values.agent) usageError(usage.trimEnd(), 'gateway.mjs needs --agent URL');
  const count = (/** @type {string | undefined} */ value, /** @type {string} */ flag, max = 2 ** 31 - 1) => {
    if (value === undefined) return undefined;
    if (!/^\d+$/.test(value) || Number(value) > max) throw new Error(`${flag} must be a whole number up to ${max}, not ${quote(value)}`);
    return Number(value);
  };
  if (values.jwks && (!values.issuer || !values.audience)) throw new Error('--jwks needs --issuer and --audience');
  if (values.lookup && values.lookup !== 'every-message') throw new Error('--lookup takes every-message');
  if (!values.push && (values['push-when'] || values['push-check-ms']))
    throw new Error('--push-when and --push-check-ms go with --push URL');
  const push = values.push
    ? {
        via: values.push,
        ...(values['push-when'] ? { when: pushWhenOf(values['push-when']) } : {}),
        ...(values['push-check-ms'] ? { checkEveryMs: Math.max(100, count(values['push-check-ms'], '--push-check-ms') ?? 0) } : {}),
      }
    : undefined;
  const name = values.name ?? `${hostname()}:${process.pid}`;
  const gateway = await startGateway({
    agent: values.agent,
    port: count(values.port, '--port', 65_535) ?? 0,
    name,
    ...(values.host ? { host: values.host } : {}),
    ...(values.jwks ? { auth: { jwks: values.jwks, issuer: values.issuer ?? '', audience: values.audience ?? '' } } : {}),
    ...(values['heartbeat-ms'] ? { heartbeatMs: count(values['heartbeat-ms'], '--heartbeat-ms') } : {}),
    ...(values['max-buffered-bytes'] ? { maxBufferedBytes: count(values['max-buffered-bytes'], '--max-buffered-bytes') } : {}),
    ...(values['max-streams'] ? { maxStreams: count(values['max-streams'], '--max-streams', 100_000) } : {}),
    ...(values.lookup ? { lookup: /** @type {'every-message'} */ (values.lookup) } : {}),
    ...(push ? { push } : {}),
    fairUse: fairUseOf(values, process.env),
    a2uiCatalogs: a2uiCatalogsOf(values['a2ui-catalogs'], process.env),
    log: (line) => process.stderr.write(`gateway ${name}: ${line}\n`),
  });
  process.stdout.write(`gateway ${name} on ${gateway.url}\n`);
  const stop = (/** @type {string} */ signal) => {
    process.stderr.write(`gateway ${name}: ${signal}, handing its turns over\n`);
    gateway.close().then(() => process.exit(0));
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`gateway: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
