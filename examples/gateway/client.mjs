/**
 * A gateway client that never loses a reply: it posts a message (or asks for the thread's reply in
 * progress), reads the turn's Server-Sent Events, and whenever the stream breaks before the turn's
 * `end` (a replica killed, a deploy, the network) reconnects with `Last-Event-ID` through the load
 * balancer. Whichever replica answers sends exactly the rest. A browser app does the same with
 * `fetch`; `EventSource` does it by itself for GET streams.
 *
 *     node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE]
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createParser } from 'eventsource-parser';
import { startedAs } from '../started-as.mjs';

/**
 * Follows one turn to its end through the gateway at `options.gateway`.
 * @param {import('./client.d.mts').FollowOptions} options
 * @returns {Promise<import('./client.d.mts').Followed>}
 */
export async function followTurn(options) {
  const fetchImpl = options.fetch ?? fetch;
  const base = new URL(`threads/${encodeURIComponent(options.thread)}/`, options.gateway);
  const maxRetries = options.maxRetries ?? 20;
  const retryMs = options.retryMs ?? 200;
  const result = { reply: '', end: undefined, error: undefined, reconnects: 0, replicas: [], lastEventId: options.from };
  let failures = 0;
  let first = options.text !== undefined;
  for (;;) {
    const request = first
      ? { url: new URL('messages', base), init: { method: 'POST', body: JSON.stringify({ text: options.text }) } }
      : { url: new URL('events', base), init: { method: 'GET' } };
    const headers = { accept: 'text/event-stream', 'content-type': 'application/json' };
    if (!first && result.lastEventId !== undefined) headers['last-event-id'] = result.lastEventId;
    let progressed = false;
    try {
      const response = await fetchImpl(request.url, { ...request.init, headers, signal: options.signal });
      if (response.status >= 400 && response.status < 500) {
        throw Object.assign(new Error(`the gateway refused: ${response.status} ${await response.text()}`), { final: true });
      }
      if (!response.ok || response.body === null) throw new Error(`the gateway answered ${response.status}`);
      first = false; // the message is sent: from here on, only reconnects
      const replica = response.headers.get('x-replica') ?? '?';
      result.replicas.push(replica);
      options.onStream?.(replica);
      progressed = await read(response.body, (event) => {
        if (event.id) result.lastEventId = event.id;
        const data = JSON.parse(event.data);
        if (data.type === 'text') result.reply = data.replace ? data.text : result.reply + data.text;
        if (data.type === 'end') result.end = data;
        if (data.type === 'error') result.error = data.error;
        options.onEvent?.(data, event.id);
      });
    } catch (error) {
      if (error?.final || options.signal?.aborted) throw error;
      // The POST itself may have failed before the gateway took it: only then is it sent again.
    }
    if (result.end !== undefined || result.error !== undefined) return result;
    failures = progressed ? 0 : failures + 1;
    if (failures > maxRetries) throw new Error(`the gateway could not be reached after ${maxRetries} retries`);
    result.reconnects += first ? 0 : 1;
    options.onReconnect?.(result.lastEventId);
    await sleep(retryMs, undefined, { signal: options.signal });
  }
}

/**
 * Reads SSE from `body`, calling `onEvent` per event, until the stream ends or breaks. True when
 * at least one event came (the connection worked).
 */
async function read(
  /** @type {ReadableStream<Uint8Array>} */ body,
  /** @type {(event: import('eventsource-parser').EventSourceMessage) => void} */ onEvent,
) {
  let events = 0;
  const parser = createParser({
    onEvent: (event) => {
      events += 1;
      onEvent(event);
    },
  });
  const decoder = new TextDecoder();
  try {
    for await (const chunk of body) parser.feed(decoder.decode(chunk, { stream: true }));
  } catch {
    // A broken stream ends like a closed one: the caller reconnects.
  }
  return events > 0;
}

/** The command line: prints the reply as it streams, and each reconnect on stderr. */
async function main() {
  const [gateway, thread, ...words] = process.argv.slice(2);
  if (!gateway || !thread) {
    process.stderr.write('Usage: node examples/gateway/client.mjs GATEWAY_URL THREAD [MESSAGE]\n');
    process.exitCode = 2;
    return;
  }
  let shown = 0;
  const followed = await followTurn({
    gateway,
    thread,
    ...(words.length > 0 ? { text: words.join(' ') } : {}),
    onEvent: (event) => {
      if (event.type === 'text') {
        process.stdout.write(event.replace ? `\n${event.text}` : event.text);
        shown += event.text.length;
      }
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
}

if (startedAs(import.meta)) {
  main().catch((error) => {
    process.stderr.write(`client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  });
}
