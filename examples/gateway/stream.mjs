/**
 * One turn's events to one client as Server-Sent Events, written so that no client can hurt the
 * replica that serves it:
 *
 * - **The head waits for the agent.** The 200 goes with the first event after `start` (the agent
 *   named the task, or the turn failed): a task that is not the user's is then a 404, an answer to a
 *   question answered already a 409, and nothing was streamed. An agent slow to answer gets one heartbeat's time, then the stream starts anyway.
 * - **Backpressure.** When `res.write()` says the client is behind, frames wait in a queue until
 *   `drain`. A client behind is dropped when a frame comes while what waits (the socket's buffer
 *   and the queue) is past `maxBufferedBytes`, or when what waits has not shrunk for three
 *   heartbeats (it reads nothing): it resumes with its `Last-Event-ID`, and the turn goes on at the
 *   agent (detached). A client holds at most the bound and one frame, however large.
 * - **A heartbeat** (an SSE comment) whenever nothing was written for `heartbeatMs`, announced in
 *   `X-Heartbeat-Ms`: a client that hears nothing for two of them knows the stream is dead.
 * - **Nothing after the end.** The stream finishes once (its end, the client leaving, an error on
 *   the response): the heartbeat stops, the turn is left, and nothing is written afterwards.
 * - **No agent text in the framing.** Data is JSON on one line; an event's `id:` is its position only
 *   when its task id is one a resume accepts (`request.mjs`'s `isSafeId`: no control character, no
 *   line or paragraph separator, bounded), else the event goes without one, the browser keeps the
 *   last position it had, and the log says so once.
 */
import { formatPosition, positionAfter } from '../../dist/node/index.js';
import { isSafeId, quote, REASON_CHARS } from './request.mjs';
import { comment, eventFrame, field, publicError, STREAM_HEADERS } from './sse.mjs';

/**
 * A turn that fails before anything was shown answers with a status: not the user's task, input refused, or an
 * answer to a question answered already (`conflict`: the agent refused it, or the library sent nothing).
 */
const REFUSED = { 'foreign-task': 404, 'task-not-found': 404, input: 400, conflict: 409 };

/**
 * Streams `events$` (already through `catchTurnError`) to `res`, each event's id its position (from
 * `options.from` on). Returns what ends it early: `end()` ends it quietly (a replica handing its turns over).
 * @param {import('node:http').ServerResponse} res
 * @param {import('rxjs').Observable<any>} events$
 * @param {import('./stream.d.mts').StreamOptions} options
 * @returns {{ end(): void; readonly finished: boolean }}
 */
export function streamEvents(res, events$, options) {
  const { name, heartbeatMs, maxBufferedBytes, log } = options;
  let position = options.from;
  let headSent = false;
  let finished = false;
  /** Frames before the head, then frames waiting for `drain`, and their bytes. */
  let waiting = [];
  let waitingBytes = 0;
  let congested = false;
  let endWhenDrained = false;
  /** Heartbeats in a row, while behind, with the socket's buffer not shrinking. */
  let stalled = 0;
  let buffered = 0;
  /** @type {import('rxjs').Subscription | undefined} */
  let subscription;
  let unsafeLogged = false;

  const finish = () => {
    if (finished) return;
    finished = true;
    clearTimeout(heartbeat);
    waiting = [];
    subscription?.unsubscribe(); // the turn is left: `onLeave: 'detach'` lets its task run on
    options.onFinish?.();
  };
  const drop = (/** @type {string} */ why) => {
    log(`dropped a client that does not read (${why}); it resumes by its position`);
    finish();
    res.destroy();
  };
  const write = (/** @type {string} */ chunk) => {
    if (finished || chunk === '') return;
    const bytes = Buffer.byteLength(chunk);
    if (!congested) {
      congested = !res.write(chunk);
      heartbeat.refresh();
    } else if (res.writableLength + waitingBytes > maxBufferedBytes) {
      drop(`${res.writableLength + waitingBytes} bytes waiting`);
    } else {
      waiting.push(chunk);
      waitingBytes += bytes;
    }
  };
  const sendHead = () => {
    headSent = true;
    res.writeHead(200, { ...STREAM_HEADERS, 'X-Replica': name, 'X-Heartbeat-Ms': String(heartbeatMs) });
    const held = waiting.join('');
    waiting = [];
    write(`${field('retry', '1000')}${comment(`replica ${name}`)}\n${held}`);
  };
  const refuse = (/** @type {number} */ status, /** @type {string} */ message) => {
    finish();
    res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
    res.end(JSON.stringify({ error: message }));
  };
  const end = () => {
    if (finished) return;
    if (!headSent) sendHead();
    if (congested) endWhenDrained = true;
    else {
      finish();
      res.end();
    }
  };
  const heartbeat = setTimeout(function beat() {
    if (finished) return;
    // An agent slow to name the task: the stream starts, so the client and the balancer see it alive.
    if (!headSent) sendHead();
    else if (!congested) write(': \n\n');
    else {
      stalled = res.writableLength < buffered ? 0 : stalled + 1;
      buffered = res.writableLength;
      if (stalled >= 3) return drop(`nothing read for ${stalled} heartbeats`);
    }
    heartbeat.refresh();
  }, heartbeatMs);

  res.on('drain', () => {
    congested = false;
    stalled = 0;
    buffered = 0;
    const queue = waiting;
    waiting = [];
    waitingBytes = 0;
    for (const chunk of queue) write(chunk);
    if (!congested && endWhenDrained) end();
  });
  res.on('close', finish);
  res.on('error', (error) => {
    log(`stream error: ${quote(error.message, REASON_CHARS)}`);
    finish();
  });

  subscription = events$.subscribe({
    next: (event) => {
      if (finished) return;
      if (event.type === 'error') {
        const { kind, message } = event.error;
        // Handed over (SIGTERM): end without a word; the client asks another replica.
        if (kind === 'aborted' && options.draining()) return quietEnd();
        log(`turn failed: ${kind}: ${quote(message, REASON_CHARS)}`);
        const status = REFUSED[/** @type {keyof typeof REFUSED} */ (kind)];
        if (!headSent && status !== undefined) return refuse(status, publicError(event.error).message);
      } else position = positionAfter(position, event);
      const frame = eventFrame(event, idOf(position));
      if (headSent) return write(frame);
      waiting.push(frame);
      if (event.type !== 'start') sendHead();
    },
    complete: end,
    error: end,
  });
  if (finished) subscription.unsubscribe();

  /** The `id:` of a position: none when its task id is one no resume would accept (said once in the log). */
  function idOf(/** @type {import('../../dist/index.js').ReplyPosition | undefined} */ at) {
    if (at === undefined) return undefined;
    if (isSafeId(at.taskId)) return formatPosition(at);
    if (!unsafeLogged) log(`the agent's task id ${quote(at.taskId)} cannot be a position: its events go without an id`);
    unsafeLogged = true;
    return undefined;
  }

  /** Ends the stream without its end: a client with a position resumes it, one without asks again. */
  function quietEnd() {
    if (finished) return;
    if (!headSent) return refuse(503, 'this replica is shutting down; ask again');
    finish();
    res.end();
  }
  return {
    end: quietEnd,
    get finished() {
      return finished;
    },
  };
}
