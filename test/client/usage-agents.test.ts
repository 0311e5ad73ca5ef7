import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE_MOUNTS, startUsageAgent, type UsageAgents } from '../../fixtures/agent-usage.js';
import { USAGE_CONVENTIONS } from '../../fixtures/usage-conventions.js';
import { createA2A } from '../../src/node/create-a2a.js';
import type { EndEvent, TurnEvent, Usage } from '../../src/port/events.js';
import { otelTelemetry } from '../../src/telemetry/index.js';

// Usage against real SDK agents reporting it in each convention, streaming and not, v1.0 and v0.3: the numbers
// arrive unchanged at the turn's end, on its span and in the thread's history; an agent that reports nothing
// shows no usage anywhere.

const SECRET = 'usage-agents-test-secret-0123456789abcdef';
let agents: UsageAgents;
let spans: InMemorySpanExporter;
let tracerProvider: TracerProvider;
beforeAll(async () => {
  agents = await startUsageAgent();
  spans = new InMemorySpanExporter();
  tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spans })] });
});
afterAll(async () => {
  await tracerProvider?.shutdown();
  await agents?.close();
});

const numbers = (usage: Usage | undefined) => {
  if (usage === undefined) return undefined;
  const { reported: _reported, ...rest } = usage;
  return rest;
};
const genAi = (attributes: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(attributes).filter(([key]) => key.startsWith('gen_ai.')));
const spanOf = (expected: ReturnType<typeof numbers>) => ({
  ...(expected?.inputTokens === undefined ? {} : { 'gen_ai.usage.input_tokens': expected.inputTokens }),
  ...(expected?.outputTokens === undefined ? {} : { 'gen_ai.usage.output_tokens': expected.outputTokens }),
});

const CONVENTIONS = Object.entries(USAGE_CONVENTIONS);

describe('usage reported by real SDK agents', () => {
  for (const wire of ['v1', 'v03'] as const) {
    for (const mode of ['streaming', 'blocking'] as const) {
      it(`${wire} ${mode}: each convention's numbers at the end and on the span; none reported, none anywhere`, async () => {
        const a2a = createA2A({ identitySecret: SECRET, telemetry: otelTelemetry({ tracerProvider }) });
        const url = agents[wire].url(USAGE_MOUNTS[mode]);
        try {
          for (const [word, convention] of CONVENTIONS) {
            const events: TurnEvent[] = await lastValueFrom(
              a2a.turn({ agent: url, handle: 'h', thread: `${wire}-${mode}-${word}`, text: word }).pipe(toArray()),
            );
            const end = events.at(-1) as EndEvent;
            expect([word, end.outcome]).toEqual([word, 'completed']);
            expect([word, numbers(end.usage)]).toEqual([word, convention.expected]);
            const reported = events.filter((e) => e.type === 'usage');
            expect([word, reported.length > 0]).toEqual([word, convention.expected !== undefined]);
            if (convention.expected === undefined) expect(end).not.toHaveProperty('usage');
            const span = spans.getFinishedSpans().at(-1)!;
            expect([word, genAi(span.attributes)]).toEqual([word, spanOf(convention.expected)]);
          }
        } finally {
          await a2a.close();
        }
      });
    }
  }

  it("a single report arrives as the agent sent it: `reported` is the agent's object", async () => {
    const a2a = createA2A({ identitySecret: SECRET });
    const events = await lastValueFrom(
      a2a.turn({ agent: agents.v1.url('/'), handle: 'h', thread: 'reported', text: 'openai' }).pipe(toArray()),
    );
    await a2a.close();
    const snapshot = USAGE_CONVENTIONS['openai']!.steps.find((step) => 'snapshot' in step) as { snapshot: { usage: unknown } };
    expect((events.at(-1) as EndEvent).usage?.reported).toEqual(snapshot.snapshot.usage);
  });

  for (const mode of ['streaming', 'blocking'] as const) {
    it(`v1 ${mode}: the thread's history carries each task's usage, the same numbers; none reported, none there`, async () => {
      const a2a = createA2A({ identitySecret: SECRET });
      const url = agents.v1.url(USAGE_MOUNTS[mode]);
      try {
        // A message-only answer leaves no task to list.
        for (const [word, convention] of CONVENTIONS.filter(([word]) => word !== 'message')) {
          const thread = `history-${mode}-${word}`;
          await lastValueFrom(a2a.turn({ agent: url, handle: 'h', thread, text: word }).pipe(toArray()));
          const page = await lastValueFrom(a2a.history({ agent: url, handle: 'h', thread }));
          expect([word, page.exchanges.length]).toEqual([word, 1]);
          const [exchange] = page.exchanges;
          expect([word, numbers(exchange!.usage)]).toEqual([word, convention.expected]);
          if (convention.expected === undefined) expect(exchange).not.toHaveProperty('usage');
        }
      } finally {
        await a2a.close();
      }
    });
  }
});
