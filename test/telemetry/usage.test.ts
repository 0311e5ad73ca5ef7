/** Telemetry: the usage the agent reported on the turn's span as OpenTelemetry's gen_ai.usage.* attributes, nothing else. */
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { concat, lastValueFrom, of, throwError, toArray, type Observable } from 'rxjs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createA2A } from '../../src/client/create-a2a.js';
import { A2AError } from '../../src/errors.js';
import type { AgentEvent } from '../../src/port/types.js';
import { otelTelemetry } from '../../src/telemetry/index.js';
import { createFakePort, testCard } from '../../src/testing/index.js';
import { POLICY } from '../faults/kit.js';

let spans: InMemorySpanExporter;
let tracerProvider: TracerProvider;
beforeEach(() => {
  spans = new InMemorySpanExporter();
  tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
});
afterEach(() => tracerProvider.shutdown());

const said = (messageId: string, usage: unknown): AgentEvent => ({
  kind: 'status',
  taskId: 'T',
  status: { state: 'working', message: { role: 'agent', messageId, parts: [{ kind: 'text', text: 'ok' }], metadata: { usage } } },
});
const task: AgentEvent = { kind: 'task', task: { id: 'T', status: { state: 'working' }, artifacts: [] } };
const completed: AgentEvent = { kind: 'status', taskId: 'T', status: { state: 'completed' } };

/** One turn over a fake agent whose stream is `stream`; the turn's span's gen_ai attributes. */
async function usageOnSpan(stream: () => Observable<AgentEvent>): Promise<Record<string, unknown>> {
  const a2a = createA2A({
    identitySecret: 'usage-telemetry-secret-0123456789abcdef',
    policy: { ...POLICY.policy!, reconnect: { maxAttempts: 0 } },
    telemetry: otelTelemetry({ tracerProvider }),
    ports: () =>
      createFakePort({
        card: () => of(testCard()),
        stream,
        getTask: () => throwError(() => new A2AError({ kind: 'network', message: 'down' })),
      }),
  });
  await lastValueFrom(a2a.turn({ agent: 'http://127.0.0.1:1/', handle: 'h', thread: 't', text: 'hi' }).pipe(toArray())).catch(() => []);
  await a2a.close();
  const [span] = spans.getFinishedSpans();
  return Object.fromEntries(Object.entries(span!.attributes).filter(([key]) => key.startsWith('gen_ai.')));
}

describe('usage on the turn span', () => {
  it('the reported input and output tokens, as the end says them (no total: the conventions name none)', async () => {
    const attributes = await usageOnSpan(() =>
      of(
        task,
        said('a', { input_tokens: 120, output_tokens: 30, total_tokens: 150 }),
        said('b', { input_tokens: 5, output_tokens: 1 }),
        completed,
      ),
    );
    expect(attributes).toEqual({ 'gen_ai.usage.input_tokens': 125, 'gen_ai.usage.output_tokens': 31 });
  });

  it('only what was reported: output alone gives output alone', async () => {
    expect(await usageOnSpan(() => of(task, said('a', { completion_tokens: 9 }), completed))).toEqual({ 'gen_ai.usage.output_tokens': 9 });
  });

  it('nothing reported, or garbage: no gen_ai attribute', async () => {
    expect(await usageOnSpan(() => of(task, said('a', undefined), completed))).toEqual({});
    expect(await usageOnSpan(() => of(task, said('a', { input_tokens: -1, output_tokens: 'x' }), completed))).toEqual({});
  });

  it('a turn that fails after a report still records what the agent said it spent', async () => {
    const broken = () =>
      concat(
        of(task, said('a', { inputTokens: 7, outputTokens: 2 })),
        throwError(() => new A2AError({ kind: 'network', message: 'cut' })),
      );
    expect(await usageOnSpan(broken)).toEqual({ 'gen_ai.usage.input_tokens': 7, 'gen_ai.usage.output_tokens': 2 });
  });
});
