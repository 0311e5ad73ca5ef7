/**
 * A replica's routes (replica.mjs serves them): each request checked (request.mjs), counted against the
 * replica's streams and the person's fair use (fair-use.mjs), and made into a turn, a resume or a cancel;
 * a refusal or a failure answered as JSON.
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
 * Past the replica's streams a message or a resume is refused before anything goes to the agent, 503 with
 * `Retry-After` and `X-Message-Taken: no`; past the person's fair use, 429 likewise (fair-use.mjs).
 */
import { takeWhile } from 'rxjs';
// The built library (`npm run build`); an app would write `from 'a4h-a2a/node'`.
import { catchTurnError } from '../../dist/node/index.js';
import { answerOf, optionalId, positionOf, quote, readJson, REASON_CHARS, Refusal, sentAtOf, threadKeyOf } from './request.mjs';
import { streamEvents } from './stream.mjs';
import { isPushPath } from './push.mjs';
import { actionTurnOf, carriesAction } from './a2ui.mjs';

/**
 * What the routes are given by the replica that serves them.
 * @typedef {object} ReplicaRoutesOptions
 * @property {string} agent The agent's URL.
 * @property {string} name The replica's name (the `X-Replica` header, the health check).
 * @property {import('../../dist/index.js').A2AClient} a2a The replica's client.
 * @property {(authorization: string | undefined) => Promise<string>} verify The user of an `Authorization` header, or a thrown `Refusal`.
 * @property {import('./fair-use.d.mts').FairUse} fair The replica's fair-use table.
 * @property {import('./push.d.mts').ReplicaPush | undefined} push With `--push`: the replica's receivers.
 * @property {(line: string) => void} log One line per request.
 * @property {{ heartbeatMs: number; maxBufferedBytes: number }} settings Each stream's heartbeat and bound.
 * @property {number} maxStreams Streams served at once.
 * @property {Set<{ end(): void }>} streams The streams open now (the routes add and delete them; the replica ends them on close).
 * @property {() => boolean} draining Whether the replica is shutting down.
 */

/**
 * The replica's request handler: each request routed, and what failed answered (a `Refusal` as it says; a task
 * of no such thread 404; anything else 502, logged).
 * @param {ReplicaRoutesOptions} replica
 * @returns {(req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => void}
 */
export function replicaRoutes(replica) {
  const { agent, name, a2a, verify, fair, push, log, settings, maxStreams, streams, draining } = replica;

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
        draining,
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
      return reply(res, draining() ? 404 : 200, {
        replica: name,
        draining: draining(),
        fairUse: fair.stats(),
        ...(push ? { push: push.stats() } : {}),
      });
    }
    // Before anything reads the body (the receiver bounds it), and served while draining: a push after the
    // hand-over finds no turn here and is answered 204; the replica that resumed the task has set its own receiver.
    if (push && isPushPath(url.pathname)) return push.handle(req, res);
    const match = /^\/threads\/([^/]+)\/(messages|events|cancel)$/.exec(url.pathname);
    if (match === null) throw new Refusal(404, 'not found');
    const user = await verify(req.headers.authorization);
    const thread = threadKeyOf(/** @type {string} */ (match[1]));
    if (draining()) throw new Refusal(503, 'this replica is shutting down; try again', NOT_TAKEN);
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

  return (req, res) => {
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

/** A JSON answer. @param {import('node:http').ServerResponse} res @param {number} status @param {unknown} value @param {Record<string, string>} [headers] */
function reply(res, status, value, headers = {}) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(value));
}
