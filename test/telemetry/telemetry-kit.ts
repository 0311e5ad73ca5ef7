/**
 * The telemetry tests' kit: a real SDK agent on 127.0.0.1 behind the fault proxy, a client whose telemetry goes to
 * the OpenTelemetry SDK's in-memory exporters, fresh for each test (useTelemetryRig), and what the exporters hold.
 */
import {
  AggregationTemporality,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ResourceMetrics,
} from '@opentelemetry/sdk-metrics';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from '@opentelemetry/sdk-trace';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, beforeEach } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../../fixtures/fault-proxy.js';
import { startV1Agent, type FixtureAgent } from '../../fixtures/index.js';
import { createA2A, type A2AClient, type A2AOptions } from '../../src/client/create-a2a.js';
import { createNodeFetch, type NodeFetch } from '../../src/node/fetch.js';
import type { TurnEvent } from '../../src/port/events.js';
import { otelTelemetry } from '../../src/telemetry/index.js';
import { POLICY, TIMING } from '../faults/kit.js';

/** The client's identity secret. */
export const SECRET = 'correct horse battery staple 0123456789';
/** A bearer token that must never reach telemetry. */
export const TOKEN = 'tok-telemetry-9f8e7d6c5b4a';
/** A sampled W3C traceparent: its trace id and span id. */
export const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

/** The test's agent, proxy, fetch, exporters, providers and client: set before each test by useTelemetryRig. */
export let agent: FixtureAgent;
export let proxy: FaultProxy;
export let http: NodeFetch;
export let spans: InMemorySpanExporter;
export let tracerProvider: TracerProvider;
export let metricExporter: InMemoryMetricExporter;
export let reader: PeriodicExportingMetricReader;
export let meterProvider: MeterProvider;
export let a2a: A2AClient;

/** A client on the test's fetch whose telemetry goes to the test's providers. */
export const client = (extra: Partial<A2AOptions> = {}): A2AClient =>
  createA2A({
    identitySecret: SECRET,
    fetch: http.fetch,
    policy: POLICY.policy!,
    random: () => 0,
    telemetry: otelTelemetry({ tracerProvider, meterProvider }),
    ...extra,
  });

/** One turn of `client` through the proxy, its events collected. */
export const turn = (text: string, client = a2a): Promise<TurnEvent[]> =>
  lastValueFrom(client.turn({ agent: proxy.url('/'), handle: 'travel', thread: 't-1', text }).pipe(toArray()));

/** The spans ended so far. */
export const finished = (): ReadableSpan[] => spans.getFinishedSpans();

/** The points of one metric (sum or histogram), collected now. */
export async function points(name: string): Promise<Array<{ attributes: Record<string, unknown>; value: unknown }>> {
  await reader.forceFlush();
  const all: ResourceMetrics[] = metricExporter.getMetrics();
  const last = all.at(-1);
  const metric = last?.scopeMetrics.flatMap((s) => s.metrics).find((m) => m.descriptor.name === name);
  return (metric?.dataPoints ?? []).map((p) => ({ attributes: p.attributes, value: p.value }));
}

/** The `traceparent` each request of the turn carried to the agent (the card's excepted). */
export const traceparents = (methods: readonly string[]): Array<string | undefined> =>
  agent.received.filter((r) => methods.includes(r.method)).map((r) => r.headers['traceparent']);

/** A fresh agent, proxy, fetch, exporters and client before each test; all closed after it. */
export function useTelemetryRig(): void {
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
}
