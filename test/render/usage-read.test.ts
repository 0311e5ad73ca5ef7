import { describe, expect, it } from 'vitest';
import { readUsage } from '../../src/render/usage-read.js';

// One report read from one metadata object: each convention's names, and what is garbage (ignored, never thrown).

const numbers = (metadata: Record<string, unknown>) => {
  const read = readUsage(metadata);
  if (read === undefined) return undefined;
  const { reported: _reported, ...usage } = read.usage;
  return { convention: read.convention, ...usage };
};

describe('readUsage: the conventions in use', () => {
  it.each([
    ['the AI SDK (5+)', { usage: { inputTokens: 12, outputTokens: 34, totalTokens: 46, reasoningTokens: 3 } }],
    [
      'the AI SDK provider shape ({ total })',
      { usage: { inputTokens: { total: 12, noCache: 10 }, outputTokens: { total: 34 }, totalTokens: 46 } },
    ],
    ['the AI SDK before 5', { usage: { promptTokens: 12, completionTokens: 34, totalTokens: 46 } }],
    ['OpenAI chat completions (inference-gateway)', { usage: { prompt_tokens: 12, completion_tokens: 34, total_tokens: 46 } }],
    ['OpenAI responses, redpanda', { usage: { input_tokens: 12, output_tokens: 34, total_tokens: 46, cached_tokens: 0 } }],
  ])('%s: metadata.usage', (_name, metadata) => {
    expect(numbers(metadata)).toEqual({ convention: 'usage', inputTokens: 12, outputTokens: 34, totalTokens: 46 });
  });

  it.each([['adk_usage_metadata'], ['kagent_usage_metadata']])("Gemini's names under ADK's %s", (key) => {
    const metadata = {
      adk_app_name: 'x',
      [key]: { promptTokenCount: 975, candidatesTokenCount: 11, totalTokenCount: 1076, thoughtsTokenCount: 90 },
    };
    expect(numbers(metadata)).toEqual({ convention: 'adk', inputTokens: 975, outputTokens: 11, totalTokens: 1076 });
  });

  it('a field the agent did not give is absent, never zero; the total is never computed', () => {
    expect(numbers({ usage: { output_tokens: 7 } })).toEqual({ convention: 'usage', outputTokens: 7 });
    expect(numbers({ usage: { inputTokens: 0 } })).toEqual({ convention: 'usage', inputTokens: 0 });
  });

  it.each([
    [{ cost: 0.0042 }, { amount: 0.0042 }],
    [
      { cost: 0.5, currency: 'EUR' },
      { amount: 0.5, currency: 'EUR' },
    ],
    [{ cost: { amount: 1.25, currency: 'USD' } }, { amount: 1.25, currency: 'USD' }],
    [{ cost_usd: 0.01 }, { amount: 0.01, currency: 'USD' }],
    [{ total_cost_usd: 0.02 }, { amount: 0.02, currency: 'USD' }],
    [{ cost: { amount: 2, currency: 'dollars' } }, { amount: 2 }],
  ])('cost where given: %j', (usage, cost) => {
    expect(readUsage({ usage: { input_tokens: 1, ...usage } })?.usage.cost).toEqual(cost);
  });

  it("`reported` is the agent's object as it sent it", () => {
    const usage = { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3, prompt_tokens_details: { cached_tokens: 0 }, model: 'm' };
    expect(readUsage({ usage })?.usage.reported).toEqual(usage);
  });

  it('the first key that holds a report wins: `usage` before ADK’s', () => {
    expect(numbers({ usage: 'none', adk_usage_metadata: { promptTokenCount: 5 } })).toEqual({ convention: 'adk', inputTokens: 5 });
  });
});

describe('readUsage: garbage is ignored, never an error', () => {
  it.each([
    ['negative', -1],
    ['fractional', 1.5],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a numeric string', '12'],
    ['huge', 1e13],
    ['past a safe integer', 2 ** 60],
    ['null', null],
    ['an array', [12]],
    ['an object without total', { value: 12 }],
    ['a boolean', true],
  ])('a count that is %s is absent (and a report of nothing is no report)', (_name, bad) => {
    expect(readUsage({ usage: { inputTokens: bad, outputTokens: bad, totalTokens: bad } })).toBeUndefined();
    expect(numbers({ usage: { inputTokens: bad, output_tokens: 3 } })).toEqual({ convention: 'usage', outputTokens: 3 });
  });

  it.each([
    ['negative', -0.5],
    ['NaN', Number.NaN],
    ['a string', '0.5'],
    ['huge', 1e300],
  ])('a cost that is %s is absent', (_name, bad) => {
    expect(readUsage({ usage: { cost: bad } })).toBeUndefined();
    expect(readUsage({ usage: { input_tokens: 1, cost: { amount: bad, currency: 'USD' } } })?.usage.cost).toBeUndefined();
  });

  it.each([[undefined], [{}], [{ usage: null }], [{ usage: 'lots' }], [{ usage: [1, 2] }], [{ usage: {} }], [{ usage: { tokens: 5 } }]])(
    'no report in %j',
    (metadata) => {
      expect(readUsage(metadata as Record<string, unknown> | undefined)).toBeUndefined();
    },
  );

  it('an inherited name reads nothing: a `__proto__` key from JSON is data, never a prototype', () => {
    const metadata = JSON.parse('{"usage":{"__proto__":{"inputTokens":5},"outputTokens":2}}') as Record<string, unknown>;
    const read = readUsage(metadata);
    expect(read?.usage.inputTokens).toBeUndefined();
    expect(read?.usage.outputTokens).toBe(2);
    expect(Object.getPrototypeOf(read!.usage.reported)).toBe(Object.prototype);
    expect(Object.keys(read!.usage.reported!)).toEqual(['__proto__', 'outputTokens']);
    expect(({} as Record<string, unknown>)['inputTokens']).toBeUndefined();
  });

  it('`reported` is bounded: deep, wide and long values cut, non-JSON values dropped', () => {
    let deep: Record<string, unknown> = { end: true };
    for (let i = 0; i < 1_000; i++) deep = { deeper: deep };
    const usage = {
      inputTokens: 1,
      deep,
      wide: Array.from({ length: 100_000 }, (_, i) => i),
      many: Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`k${i}`, i])),
      long: 'x'.repeat(1_000_000),
      fn: () => 1,
      nan: Number.NaN,
    };
    const reported = readUsage({ usage })!.usage.reported!;
    const json = JSON.stringify(reported);
    expect(json.length).toBeLessThan(4_000);
    expect(reported['inputTokens']).toBe(1);
    expect((reported['wide'] as unknown[]).length).toBe(32);
    expect(reported['long']).toHaveLength(256);
    expect(reported).not.toHaveProperty('fn');
    expect(reported).not.toHaveProperty('nan');
  });
});
