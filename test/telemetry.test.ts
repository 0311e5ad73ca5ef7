/**
 * Telemetry, exported by the OpenTelemetry SDK's in-memory exporters: a span per turn of real SDK
 * agents on 127.0.0.1 (behind the fault proxy for a broken stream), its `traceparent` on each request
 * the agent received, the turn metrics, and nothing of it when the option is absent.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { lastValueFrom, Observable, of, throwError, toArray } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { startGrpcAgent } from '../fixtures/agent-grpc.js';
import { startFaultProxy, type FaultProxy } from '../fixtures/fault-proxy.js';
import { FAIL_MESSAGE, REPLY, startV1Agent, type FixtureAgent } from '../fixtures/index.js';
import { A2AError } from '../src/errors.js';
import { createA2A, createClient, type A2AClient, type A2AOptions } from '../src/client/create-a2a.js';
import { createNodeFetch, type NodeFetch } from '../src/node/fetch.js';
import { grpcSupport } from '../src/node/grpc.js';
import type { TurnEvent } from '../src/port/events.js';
import { createSdkPorts } from '../src/sdk/ports.js';
import { otelTelemetry } from '../src/telemetry/index.js';
import { traceparentOf } from '../src/telemetry/traceparent.js';
import { agentAttribute, TurnTelemetry } from '../src/telemetry/turn.js';
import { createFakePort, ev, testCard } from '../src/testing/index.js';
import { POLICY, SLOW_REPLY, TIMING } from './faults/kit.js';

const SECRET = 'correct horse battery staple 0123456789';
const TOKEN = 'tok-telemetry-9f8e7d6c5b4a';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

let agent: FixtureAgent;
let proxy: FaultProxy;
let http: NodeFetch;
let spans: InMemorySpanExporter;
let tracerProvider: TracerProvider;
let metricExporter: InMemoryMetricExporter;
let reader: PeriodicExportingMetricReader;
let meterProvider: MeterProvider;
let a2a: A2AClient;

const client = (extra: Partial<A2AOptions> = {}): A2AClient =>
  createA2A({
    identitySecret: SECRET,
    fetch: http.fetch,
    policy: POLICY.policy!,
    random: () => 0,
    telemetry: otelTelemetry({ tracerProvider, meterProvider }),
    ...extra,
  });

const turn = (text: string, client = a2a): Promise<TurnEvent[]> =>
  lastValueFrom(client.turn({ agent: proxy.url('/'), handle: 'travel', thread: 't-1', text }).pipe(toArray()));

const finished = (): ReadableSpan[] => spans.getFinishedSpans();

/** The points of one metric (sum or histogram), collected now. */
async function points(name: string): Promise<Array<{ attributes: Record<string, unknown>; value: unknown }>> {
  await reader.forceFlush();
  const all: ResourceMetrics[] = metricExporter.getMetrics();
  const last = all.at(-1);
  const metric = last?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** The `traceparent` each request of the turn carried to the agent (the card's excepted). */
const traceparents = (methods: readonly string[]): Array<string | undefined> =>
  agent.received.filter((r) => methods.includes(r.method)).map((r) => r.headers['traceparent']);

beforeEach(async () => {
  agent = await startV1Agent({ timing: TIMING });
  proxy = await startFaultProxy(agent.baseUrl);
  http = createNodeFetch({ keepAliveTimeoutMs: 1_000 });
  spans = new InMemorySpanExporter();
  tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
  metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  meterProvider = new MeterProvider({ readers: [reader] });
  a2a = client();
});

afterEach(async () => {
  await a2a.close();
  await meterProvider.shutdown();
  await tracerProvider.shutdown();
  await http.close();
  await proxy.close();
  await agent.close();
});

describe('a span per turn', () => {
  it('a completed turn: one CLIENT span a2a.turn with the agent, handle, protocol version, transport, task and outcome', async () => {
    const events = await turn('slow');
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
    expect(finished()).toHaveLength(1);
    const [span] = finished();
    expect(span!.name).toBe('a2a.turn');
    expect(span!.kind).toBe(SpanKind.CLIENT);
    expect(span!.status.code).toBe(SpanStatusCode.UNSET);
    const task = events.find((e) => e.type === 'task');
    expect(span!.attributes).toEqual({
      'a2a.agent': proxy.url('/'),
      'a2a.handle': 'travel',
      'a2a.protocol.version': '1.0',
      'a2a.transport': 'JSONRPC',
      'a2a.task.id': task?.type === 'task' ? task.taskId : 'missing',
      'a2a.outcome': 'completed',
    });
    expect(span!.events).toEqual([]);
  });

  it('its W3C traceparent reaches the agent on the stream, with the span’s trace and span ids', async () => {
    await turn('slow');
    const [span] = finished();
    const sent = traceparents(['SendStreamingMessage']);
    expect(sent).toHaveLength(1);
    const [, traceId, spanId] = TRACEPARENT.exec(sent[0] ?? '') ?? [];
    expect(traceId).toBe(span!.spanContext().traceId);
    expect(spanId).toBe(span!.spanContext().spanId);
    // The card is loaded once for every turn (cached): it carries no turn's context.
    expect(agent.received.filter((r) => r.method.includes('agent-card')).map((r) => r.headers['traceparent'])).toEqual([undefined]);
  });

  it("over gRPC: the traceparent goes as the calls' metadata, the span says a2a.transport GRPC", async () => {
    const grpcAgent = await startGrpcAgent();
    const traced = createClient(
      { identitySecret: SECRET, policy: POLICY.policy!, telemetry: otelTelemetry({ tracerProvider, meterProvider }) },
      { grpc: grpcSupport() },
    );
    try {
      await lastValueFrom(
        traced.turn({ agent: grpcAgent.url('/'), handle: 'travel', thread: 't-grpc', text: 'artifacts' }).pipe(toArray()),
      );
    } finally {
      await traced.close();
      await grpcAgent.close();
    }
    const [span] = finished();
    expect(span!.attributes).toMatchObject({ 'a2a.transport': 'GRPC', 'a2a.outcome': 'completed' });
    const sent = grpcAgent.received.filter((r) => r.method === 'SendStreamingMessage').map((r) => r.headers['traceparent']);
    expect(sent).toHaveLength(1);
    expect(TRACEPARENT.exec(sent[0] ?? '')?.slice(1)).toEqual([span!.spanContext().traceId, span!.spanContext().spanId]);
  });

  it('an agent failure is an outcome (status unset), each turn its own trace', async () => {
    const failed = await turn('fail');
    expect(failed.at(-1)).toMatchObject({ type: 'end', outcome: 'failed', text: FAIL_MESSAGE });
    await turn('status');
    const [first, second] = finished();
    expect(first!.attributes['a2a.outcome']).toBe('failed');
    expect(first!.status.code).toBe(SpanStatusCode.UNSET);
    expect(second!.attributes['a2a.outcome']).toBe('completed');
    expect(second!.spanContext().traceId).not.toBe(first!.spanContext().traceId);
    const sent = traceparents(['SendStreamingMessage']).map((h) => TRACEPARENT.exec(h ?? '')?.[1]);
    expect(sent).toEqual([first!.spanContext().traceId, second!.spanContext().traceId]);
  });

  it('a broken stream: a reconnecting event, the resubscribe carries the same traceparent, a2a.reconnects counts it', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'destroy' } });
    const events = await turn('slow');
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: SLOW_REPLY });
    const [span] = finished();
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['a2a.reconnecting', { 'a2a.attempt': 1, 'a2a.delay_ms': 20, 'error.type': 'network' }],
    ]);
    const [stream, resubscribe] = traceparents(['SendStreamingMessage', 'SubscribeToTask']);
    expect(stream).toMatch(TRACEPARENT);
    expect(resubscribe).toBe(stream);
    expect(await points('a2a.reconnects')).toEqual([{ attributes: { 'a2a.agent': proxy.url('/') }, value: 1 }]);
  });

  it('polling: a span event, and GetTask carries the traceparent (the SDK’s transport)', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'destroy' } });
    proxy.plan({ on: 'resubscribe', fault: { type: 'respond', status: 503 }, times: Infinity });
    const events = await turn('slow');
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    const [span] = finished();
    expect(span!.events.map((e) => e.name)).toEqual(['a2a.reconnecting', 'a2a.reconnecting', 'a2a.reconnecting', 'a2a.polling']);
    expect(span!.events.at(-1)?.attributes).toEqual({ 'a2a.reason': 'resubscribe-failed', 'error.type': 'http' });
    const gets = traceparents(['GetTask']);
    expect(gets.length).toBeGreaterThan(0);
    for (const header of gets) expect(TRACEPARENT.exec(header ?? '')?.[1]).toBe(span!.spanContext().traceId);
  });

  it('an abandoned turn: outcome abandoned, a cancel event, CancelTask carries the traceparent, a2a.cancels counts it', async () => {
    const taskSeen = new Promise<void>((resolve) => {
      const sub = a2a.turn({ agent: proxy.url('/'), handle: 'travel', thread: 't-2', text: 'slow' }).subscribe((event) => {
        if (event.type !== 'task') return;
        sub.unsubscribe();
        resolve();
      });
    });
    await taskSeen;
    await a2a.close(); // the CancelTask answered
    const [span] = finished();
    expect(span!.attributes['a2a.outcome']).toBe('abandoned');
    expect(span!.events.map((e) => e.name)).toEqual(['a2a.cancel']);
    const cancels = traceparents(['CancelTask']);
    expect(cancels).toHaveLength(1);
    expect(TRACEPARENT.exec(cancels[0] ?? '')?.[2]).toBe(span!.spanContext().spanId);
    expect(await points('a2a.cancels')).toEqual([{ attributes: { 'a2a.agent': proxy.url('/') }, value: 1 }]);
    expect(await points('a2a.turns')).toEqual([{ attributes: { 'a2a.agent': proxy.url('/'), 'a2a.outcome': 'abandoned' }, value: 1 }]);
  });

  it('an error: status ERROR with the error kind, outcome error', async () => {
    proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 0, mode: 'destroy' } });
    const events = await lastValueFrom(
      a2a.turn({ agent: proxy.url('/'), handle: 'travel', thread: 't-3', text: 'slow' }).pipe(toArray()),
    ).catch((error: unknown) => error);
    expect(events).toMatchObject({ name: 'A2AError', kind: 'network' });
    const [span] = finished();
    expect(span!.status).toEqual({ code: SpanStatusCode.ERROR, message: 'network' });
    expect(span!.attributes).toMatchObject({ 'a2a.outcome': 'error', 'error.type': 'network' });
    expect(await points('a2a.turns')).toEqual([
      { attributes: { 'a2a.agent': proxy.url('/'), 'a2a.outcome': 'error', 'error.type': 'network' }, value: 1 },
    ]);
  });

  it('the SDK’s stream reader sends the same traceparent (serviceParameters)', async () => {
    const sdkReader = client({ ports: createSdkPorts({ fetch: http.fetch, reader: 'sdk' }) });
    await turn('slow', sdkReader);
    await sdkReader.close();
    const [span] = finished();
    const [stream] = traceparents(['SendStreamingMessage']);
    expect(TRACEPARENT.exec(stream ?? '')?.[1]).toBe(span!.spanContext().traceId);
  });
});

describe('the ladder’s other notes', () => {
  it('a stream refused before any event: a fallback event, and the blocking send gets the turn’s headers', async () => {
    const refused = new A2AError({ kind: 'unsupported', code: -32004, message: 'streaming is not supported' });
    const headers: unknown[] = [];
    const fake = client({
      ports: (_agent, turn) => {
        headers.push(turn?.headers);
        return createFakePort({
          card: () => of(testCard()),
          stream: () => throwError(() => refused),
          send: () => of(ev.message('ok')),
        });
      },
    });
    const events = await lastValueFrom(fake.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: 'ok' });
    const [span] = finished();
    expect(span!.events.map((e) => [e.name, e.attributes])).toEqual([
      ['a2a.fallback', { 'a2a.from': 'stream', 'a2a.to': 'send', 'error.type': 'unsupported' }],
    ]);
    expect(headers).toEqual([{ traceparent: traceparentOf(span!.spanContext()) }]);
  });
});

describe('the metrics', () => {
  it('a2a.turns by outcome and a2a.turn.first_event (ms) per agent', async () => {
    await turn('slow');
    await turn('fail');
    await turn('status');
    const turns = await points('a2a.turns');
    const agentUrl = proxy.url('/');
    expect(turns).toEqual(
      expect.arrayContaining([
        { attributes: { 'a2a.agent': agentUrl, 'a2a.outcome': 'completed' }, value: 2 },
        { attributes: { 'a2a.agent': agentUrl, 'a2a.outcome': 'failed' }, value: 1 },
      ]),
    );
    expect(turns).toHaveLength(2);
    const [first] = await points('a2a.turn.first_event');
    expect(first?.attributes).toEqual({ 'a2a.agent': agentUrl });
    const histogram = first?.value as { count: number; min: number; max: number };
    expect(histogram.count).toBe(3);
    expect(histogram.min).toBeGreaterThan(0);
    expect(histogram.max).toBeLessThan(5_000);
    const [descriptor] = metricExporter
      .getMetrics()
      .at(-1)!
      .scopeMetrics.flatMap((s) => s.metrics)
      .filter((m) => m.descriptor.name === 'a2a.turn.first_event')
      .map((m) => m.descriptor);
    expect(descriptor?.unit).toBe('ms');
  });
});

describe('the first-event clock', () => {
  const cause = new A2AError({ kind: 'network', message: 'cut' });
  /** One event of each type, and whether it is the agent's (it stops the clock) or the client's own note. */
  const samples: Record<TurnEvent['type'], [event: TurnEvent, fromAgent: boolean]> = {
    start: [{ type: 'start' }, false],
    task: [{ type: 'task', taskId: 'task-1' }, true],
    request: [{ type: 'request', text: 'hi' }, true],
    status: [{ type: 'status', state: 'working' }, true],
    text: [{ type: 'text', text: 'hi', replace: false }, true],
    attachment: [{ type: 'attachment', attachment: { kind: 'data', data: {} } }, true],
    activity: [{ type: 'activity', kind: 'function_call', data: {} }, true],
    'auth-required': [{ type: 'auth-required' }, true],
    reconnecting: [{ type: 'reconnecting', attempt: 1, delayMs: 0, cause }, false],
    polling: [{ type: 'polling', reason: 'resubscribe-failed', cause }, false],
    fallback: [{ type: 'fallback', from: 'stream', to: 'send', cause }, false],
    'task-gone': [{ type: 'task-gone', taskId: 'task-1', cause }, false],
    'context-refused': [{ type: 'context-refused', contextId: 'c-1', cause }, false],
    reconcile: [{ type: 'reconcile', taskId: 'task-1', reason: 'resubscribed-without-snapshot' }, false],
    'context-adopted': [{ type: 'context-adopted', sent: 'c-1', adopted: 'c-2' }, false],
    end: [{ type: 'end', outcome: 'completed', text: '' }, true],
  };

  const cases = Object.values(samples).map(([event, fromAgent]) => ({
    type: event.type,
    event,
    stopsAt: fromAgent ? 10 : 50,
  }));

  it.each(cases)('$type at 10 ms, then the end at 50 ms: the clock stops at $stopsAt ms', async ({ event: sample, stopsAt }) => {
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => now);
    const recorded: number[] = [];
    const counter = { add: () => {} };
    const telemetry = new TurnTelemetry({
      meter: { createCounter: () => counter, createHistogram: () => ({ record: (ms) => recorded.push(ms) }) },
    });
    const events = new Observable<TurnEvent>((subscriber) => {
      now = 10;
      subscriber.next(sample);
      now = 50;
      subscriber.next({ type: 'end', outcome: 'completed', text: '' });
      subscriber.complete();
    });
    try {
      await lastValueFrom(telemetry.turn('http://127.0.0.1:1/', 'h', () => events).pipe(toArray()));
    } finally {
      vi.restoreAllMocks();
    }
    expect(recorded).toEqual([stopsAt]);
  });
});

describe('credentials stay out of telemetry', () => {
  it('a bearer token sent to the agent appears in no span, event, status or metric', async () => {
    const origin = new URL(proxy.url('/')).origin;
    const secured = client({ credentials: { [origin]: { bearer: TOKEN } } });
    proxy.plan({ on: 'stream', fault: { type: 'cut', afterEvents: 4, mode: 'destroy' } });
    await turn('slow', secured);
    await secured.close();
    expect(agent.received.some((r) => r.headers['authorization'] === `Bearer ${TOKEN}`)).toBe(true);
    const exported = JSON.stringify({
      spans: finished().map((s) => ({ name: s.name, attributes: s.attributes, events: s.events, status: s.status })),
      metrics: await Promise.all(['a2a.turns', 'a2a.turn.first_event', 'a2a.reconnects', 'a2a.cancels'].map(points)),
    });
    expect(exported).toContain('a2a.reconnecting');
    expect(exported).not.toContain(TOKEN);
    expect(exported.toLowerCase()).not.toContain('authorization');
  });

  it('the agent attribute drops user info, query and fragment', () => {
    expect(agentAttribute('https://user:pw@agent.example/a2a/?token=x#f')).toBe('https://agent.example/a2a/');
    expect(agentAttribute('not a url')).toBe('invalid-url');
  });
});

describe('without the option, or without an SDK', () => {
  it('no option: no traceparent on any request, no span', async () => {
    const plain = createA2A({ identitySecret: SECRET, fetch: http.fetch });
    const events = await turn('slow', plain);
    await plain.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed' });
    expect(agent.received.every((r) => r.headers['traceparent'] === undefined)).toBe(true);
    expect(finished()).toEqual([]);
  });

  it('otelTelemetry() on the API alone (no SDK registered): the API’s no-ops, no traceparent, the turn as before', async () => {
    const noop = createA2A({ identitySecret: SECRET, fetch: http.fetch, telemetry: otelTelemetry() });
    const events = await turn('status', noop);
    await noop.close();
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: REPLY.status });
    expect(agent.received.every((r) => r.headers['traceparent'] === undefined)).toBe(true);
  });

  it('a completed turn whose reply could not be read back: a2a.reply_missing on the span and on a2a.turns', async () => {
    // A final status with nothing shown, and a GetTask that fails (the fake port answers none): the end says replyMissing unread.
    const fake = client({
      ports: () => createFakePort({ card: () => of(testCard()), stream: () => of(ev.task('T', 'working'), ev.status('T', 'completed')) }),
    });
    const events = await lastValueFrom(fake.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }).pipe(toArray()));
    expect(events.at(-1)).toMatchObject({ type: 'end', outcome: 'completed', text: '', replyMissing: { reason: 'unread' } });
    const [span] = finished();
    expect(span!.attributes).toMatchObject({ 'a2a.outcome': 'completed', 'a2a.reply_missing': 'unread' });
    expect(await points('a2a.turns')).toEqual([
      { attributes: { 'a2a.agent': 'http://127.0.0.1:1/', 'a2a.outcome': 'completed', 'a2a.reply_missing': 'unread' }, value: 1 },
    ]);
  });

  it('a fake port factory gets the turn’s headers; the span’s traceparent is W3C', async () => {
    const seen: unknown[] = [];
    const fake = client({
      ports: (_agent, turn) => {
        seen.push(turn?.headers);
        return createFakePort({ card: () => of(testCard()), stream: () => of(ev.message('hi')) });
      },
    });
    await lastValueFrom(fake.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'x' }).pipe(toArray()));
    const [span] = finished();
    expect(seen).toEqual([{ traceparent: traceparentOf(span!.spanContext()) }]);
    expect(traceparentOf({ traceId: '0'.repeat(32), spanId: '0'.repeat(16), traceFlags: 0 })).toBeUndefined();
    expect(traceparentOf({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0 })).toBe(
      `00-${'a'.repeat(32)}-${'b'.repeat(16)}-00`,
    );
  });
});
