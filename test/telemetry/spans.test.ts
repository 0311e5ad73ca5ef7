/** Telemetry: a span per turn, its traceparent on each request the agent received, the ladder's other notes (the kit: telemetry-kit.ts). */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { lastValueFrom, of, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { startGrpcAgent } from '../../fixtures/agent-grpc.js';
import { FAIL_MESSAGE } from '../../fixtures/index.js';
import { A2AError } from '../../src/errors.js';
import { createClient } from '../../src/client/create-a2a.js';
import { grpcSupport } from '../../src/node/grpc.js';
import { createSdkPorts } from '../../src/sdk/ports.js';
import { otelTelemetry } from '../../src/telemetry/index.js';
import { traceparentOf } from '../../src/telemetry/traceparent.js';
import { createFakePort, ev, testCard } from '../../src/testing/index.js';
import { POLICY, SLOW_REPLY } from '../faults/kit.js';
import {
  SECRET,
  TRACEPARENT,
  agent,
  proxy,
  http,
  tracerProvider,
  meterProvider,
  a2a,
  client,
  turn,
  finished,
  points,
  traceparents,
  useTelemetryRig,
} from './telemetry-kit.js';

useTelemetryRig();

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
