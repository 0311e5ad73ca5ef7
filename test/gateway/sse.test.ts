/**
 * The gateway never writes agent text into SSE framing unescaped (examples/gateway/sse.mjs and
 * stream.mjs): whatever an event carries — a reply, a task id — a browser's parser reads back exactly
 * the events written, no forged `end`, no `retry:` of the agent's, and no position a resume refuses.
 * Parsed with `eventsource-parser`, as the example's client and a browser read them.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { Subject } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { comment, eventFrame, field, isFieldValue } from '../../examples/gateway/sse.mjs';
import { startGateway } from '../../examples/gateway/replica.mjs';
import { streamEvents } from '../../examples/gateway/stream.mjs';
import type { TurnErrorEvent, TurnEvent } from '../../src/port/events.js';
import { sendJson, sseFrame, startRawAgent, rawCard } from '../sdk/raw-agent.js';

/** Text an agent may write: SSE field lines of its own, every line ending, NUL, separators, a BOM. */
const HOSTILE = [
  't\r\nevent: end\r\ndata: {}\r\n\r\nretry: 86400000\n',
  '\nid: 9.forged\n\n',
  '\revent: end\r\rdata: {"type":"end"}\r\r',
  'a\u0000b',
  '\u2028\u2029\u0085\ufeff: comment?',
  'data: x',
  '\\n\\r\\u000a',
] as const;

/** Every event, and every `retry:` the parser was told, of an SSE text. */
function parse(text: string): { events: EventSourceMessage[]; retries: number[] } {
  const events: EventSourceMessage[] = [];
  const retries: number[] = [];
  const parser = createParser({ onEvent: (event) => events.push(event), onRetry: (ms) => retries.push(ms) });
  parser.feed(text);
  return { events, retries };
}

describe('the SSE writer (sse.mjs)', () => {
  it.each(HOSTILE)('agent text %j in a text event and an end comes back exactly as written, one event each', (text) => {
    const written: Array<TurnEvent | TurnErrorEvent> = [
      { type: 'task', taskId: 'T' },
      { type: 'text', text, replace: false },
      { type: 'end', outcome: 'completed', text, taskId: 'T' } as TurnEvent,
    ];
    const { events, retries } = parse(written.map((event) => eventFrame(event, '1.T')).join(''));
    expect(retries).toEqual([]);
    expect(events.map((e) => [e.event, e.id])).toEqual([
      ['task', '1.T'],
      ['text', '1.T'],
      ['end', '1.T'],
    ]);
    expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual(written);
  });

  it.each(HOSTILE.filter((text) => /[\r\n\u0000]/.test(text)))(
    'an id or event type %j is refused, naming the field, not the value',
    (text) => {
      expect(isFieldValue(text)).toBe(false);
      expect(() => eventFrame({ type: 'task', taskId: 'T' }, `0.${text}`)).toThrow(
        new TypeError('an SSE id field cannot hold a line break or NUL'),
      );
      expect(() => eventFrame({ type: text, taskId: 'T' } as unknown as TurnEvent, undefined)).toThrow(
        new TypeError('an SSE event field cannot hold a line break or NUL'),
      );
      expect(() => field('retry', text)).toThrow(TypeError);
    },
  );

  it('a comment stays one comment line whatever its text', () => {
    const { events, retries } = parse(`${comment(HOSTILE[0])}\n${eventFrame({ type: 'task', taskId: 'T' }, undefined)}`);
    expect(retries).toEqual([]);
    expect(events.map((e) => e.event)).toEqual(['task']);
  });
});

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A turn's events streamed by stream.mjs to a real response on 127.0.0.1, read back whole, and the log. */
async function streamed(events: Array<TurnEvent | TurnErrorEvent>): Promise<{ text: string; log: string[] }> {
  const log: string[] = [];
  const events$ = new Subject<TurnEvent | TurnErrorEvent>();
  const server = createServer((_req, res) => {
    streamEvents(res, events$, {
      name: 'r1',
      from: undefined,
      heartbeatMs: 5_000,
      maxBufferedBytes: 1 << 20,
      draining: () => false,
      log: (line) => log.push(line),
    });
    for (const event of events) events$.next(event);
    events$.complete();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  return { text: await response.text(), log };
}

describe('a turn streamed by the gateway (stream.mjs)', () => {
  it('a task id that would forge SSE lines: the events come back exactly, none with that id, no retry but the gateway’s; the log says so once', async () => {
    const taskId = HOSTILE[0];
    const written: TurnEvent[] = [
      { type: 'start', messageId: 'm' },
      { type: 'task', taskId },
      { type: 'text', text: 'hello', replace: false },
      { type: 'text', text: HOSTILE[1], replace: false },
      { type: 'end', outcome: 'completed', text: `hello${HOSTILE[1]}`, taskId } as TurnEvent,
    ];
    const { text, log } = await streamed(written);
    const { events, retries } = parse(text);
    expect(retries).toEqual([1000]);
    expect(events.map((e) => e.event)).toEqual(['start', 'task', 'text', 'text', 'end']);
    expect(events.map((e) => JSON.parse(e.data) as unknown)).toEqual(written);
    expect(events.every((e) => e.id === undefined)).toBe(true);
    expect(log.filter((line) => line.includes('cannot be a position'))).toHaveLength(1);
    expect(log.every((line) => !/[\r\n]/.test(line))).toBe(true);
  });

  it('a task id a resume accepts is each event’s position, with the checksum of the reply so far', async () => {
    const { text } = await streamed([
      { type: 'start', messageId: 'm' },
      { type: 'task', taskId: 'task-1' },
      { type: 'text', text: 'héllo', replace: false },
      { type: 'end', outcome: 'completed', text: 'héllo', taskId: 'task-1' } as TurnEvent,
    ]);
    // FNV-1a of '' and of 'héllo' (its UTF-16 code units), as `positionAfter` keeps them.
    expect(parse(text).events.map((e) => e.id)).toEqual([undefined, '0.h811c9dc5.task-1', '5.hf1e5b55f.task-1', '5.hf1e5b55f.task-1']);
  });
});

describe('the gateway in front of an agent whose task id would forge SSE lines', { timeout: 20_000 }, () => {
  it('the browser sees start, then one error event (protocol, in the gateway’s words): no forged end, no retry but the gateway’s, no id', async () => {
    const agent = await startRawAgent((_req, res, { base, rpc }) => {
      if (rpc === undefined) {
        return sendJson(res, rawCard(base, 'forger', 'task ids with line breaks'));
      }
      if (rpc.method !== 'SendStreamingMessage')
        return sendJson(res, { jsonrpc: '2.0', id: rpc.id, error: { code: -32601, message: 'no' } });
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sseFrame(rpc.id, { task: { id: HOSTILE[0], contextId: 'C', status: { state: 'TASK_STATE_WORKING' } } }));
      res.end(sseFrame(rpc.id, { statusUpdate: { taskId: HOSTILE[0], contextId: 'C', status: { state: 'TASK_STATE_COMPLETED' } } }));
    });
    const log: string[] = [];
    const gateway = await startGateway({
      agent: agent.url,
      secret: 'sse-test-secret-not-for-production',
      name: 'sse',
      verify: async () => 'ada',
      log: (line) => log.push(line),
    });
    try {
      const response = await fetch(new URL('threads/t/messages', gateway.url), { method: 'POST', body: '{"text":"hi"}' });
      const { events, retries } = parse(await response.text());
      expect(retries).toEqual([1000]);
      expect(events.map((e) => e.event)).toEqual(['start', 'error']);
      expect(events.every((e) => e.id === undefined)).toBe(true);
      expect(JSON.parse(events[1]!.data)).toEqual({
        type: 'error',
        error: { kind: 'protocol', message: "the agent's answer could not be read", retryable: false, operation: 'turn' },
      });
      expect(log.some((line) => line.includes('turn failed: protocol: ') && line.includes('the agent sent a task id'))).toBe(true);
      expect(log.every((line) => !/[\r\n]/.test(line))).toBe(true);
    } finally {
      await gateway.close();
      await agent.close();
    }
  });
});
