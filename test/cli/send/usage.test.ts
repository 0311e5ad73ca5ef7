/**
 * `a4h send` and the agent's usage, against real SDK agents reporting it in each convention: `-o json`
 * shows the agent's objects with their metadata as the agent sent them (a streamed send's terminal task
 * with the messages that carried usage on the stream), `--stream` every report on its event; an agent that
 * reports nothing shows no usage key; the text output ends its record with one `Usage:` line when reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { USAGE_MOUNTS, startUsageAgent, type UsageAgents } from '../../../fixtures/agent-usage.js';
import { USAGE_CONVENTIONS, type Meta } from '../../../fixtures/usage-conventions.js';
import { jsonLines, runCliWithin } from '../run-cli.js';

const runCli = runCliWithin(30_000);
const USAGE_KEYS = new Set(['usage', 'adk_usage_metadata']);

let agents: UsageAgents;
beforeAll(async () => {
  agents = await startUsageAgent();
});
afterAll(async () => {
  await agents?.close();
});

/** Every value under a usage key in `value`, however deep (JSON as printed). */
function usagesIn(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const item of value) usagesIn(item, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (USAGE_KEYS.has(key)) out.push(inner);
      else usagesIn(inner, out);
    }
  }
  return out;
}

/** The usage objects a convention's agent sends, wherever it puts them. */
function sentBy(word: string): unknown[] {
  const convention = USAGE_CONVENTIONS[word]!;
  const metas: (Meta | undefined)[] = [convention.final];
  for (const step of convention.steps) {
    if ('snapshot' in step) metas.push(step.snapshot);
    else metas.push(step.metadata, 'event' in step ? step.event : undefined);
  }
  return metas.flatMap((meta) => usagesIn(meta ?? {}));
}

/** The same values, one each (a report repeated on several objects counts once). */
const distinct = (values: unknown[]): string[] => [...new Set(values.map((value) => JSON.stringify(value)))].sort();

const send = (url: string, word: string, ...flags: string[]) => runCli(['send', url, ...flags, word]);

describe('a4h send -o json: the usage as the agent sent it', () => {
  for (const mode of ['streaming', 'blocking'] as const) {
    it(`v1 ${mode}: the terminal object carries each convention's reports unchanged, key and shape as sent`, async () => {
      const url = agents.v1.url(USAGE_MOUNTS[mode]);
      const words = ['redpanda', 'openrouter', 'adk', 'ai-sdk', 'priced', 'chunks', 'message'];
      const runs = await Promise.all(words.map((word) => send(url, word, '-o', 'json')));
      for (const [index, word] of words.entries()) {
        const { code, stdout } = runs[index]!;
        expect([word, code]).toEqual([word, 0]);
        const printed = JSON.parse(stdout) as Record<string, unknown>;
        const shown = usagesIn(printed);
        // Each usage shown is one the agent sent (a partial event's ADK count, merged into the task by the SDK, is one too).
        const sent = distinct(sentBy(word));
        for (const value of distinct(shown)) expect([word, sent]).toEqual([word, expect.arrayContaining([value])]);
        expect([word, shown.length > 0]).toEqual([word, true]);
      }
      const at = (word: string) =>
        JSON.parse(runs[words.indexOf(word)]!.stdout) as { task?: Record<string, any>; message?: Record<string, any> };
      // The task's own total, where the agent put it.
      expect(at('redpanda').task!['metadata'].usage).toEqual(USAGE_CONVENTIONS['redpanda']!.final!['usage']);
      expect(at('priced').task!['metadata'].usage).toEqual({ input_tokens: 10, output_tokens: 5, cost: { amount: 0.02, currency: 'EUR' } });
      expect(at('ai-sdk').task!['metadata'].usage).toEqual({
        inputTokens: 57,
        outputTokens: 12,
        totalTokens: 69,
        reasoningTokens: 0,
        cachedInputTokens: 0,
      });
      // A message answer's own.
      expect(at('message').message!['metadata']).toEqual({ usage: { inputTokens: 8, outputTokens: 2, totalTokens: 10 } });
      // Reports only on the agent's messages (OpenRouter's): its messages, in the task's history, with theirs.
      const history = (at('openrouter').task!['history'] ?? []) as { role: string; metadata?: Meta }[];
      expect(history.filter((message) => message.role === 'ROLE_AGENT').map((message) => message.metadata?.['usage'])).toEqual([
        { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220, cost: 0.0012 },
        { prompt_tokens: 300, completion_tokens: 30, total_tokens: 330, cost: 0.0003 },
      ]);
      // An artifact's own, on the artifact.
      expect(at('chunks').task!['artifacts'][0].metadata).toEqual({ usage: { input_tokens: 40, output_tokens: 9 } });
    });

    it(`v1 ${mode}: an agent that reports nothing: no usage key anywhere, its own metadata as sent`, async () => {
      const { code, stdout } = await send(agents.v1.url(USAGE_MOUNTS[mode]), 'none', '-o', 'json');
      expect(code).toBe(0);
      expect(usagesIn(JSON.parse(stdout))).toEqual([]);
      expect(stdout).not.toMatch(/usage/i);
      expect(JSON.parse(stdout).task.metadata).toEqual({ model: 'fixture' });
    });
  }

  it('--stream: every report on the event that carried it, each as sent; none, none', async () => {
    const url = agents.v1.url('/');
    const words = ['redpanda', 'openrouter', 'adk', 'chunks', 'none'];
    const runs = await Promise.all(words.map((word) => send(url, word, '-o', 'json', '--stream')));
    for (const [index, word] of words.entries()) {
      const shown = jsonLines(runs[index]!.stdout).flatMap((line) => usagesIn(line));
      expect([word, distinct(shown)]).toEqual([word, distinct(sentBy(word))]);
    }
  });

  it("v0.3 (--a2a-version 0.3): the agent's messages with their reports, as sent; the total on its last event is --stream's", async () => {
    const url = agents.v03.url('/');
    const [redpanda, openrouter, none, streamed] = await Promise.all([
      ...['redpanda', 'openrouter', 'none'].map((word) => send(url, word, '-o', 'json', '--a2a-version', '0.3')),
      send(url, 'redpanda', '-o', 'json', '--a2a-version', '0.3', '--stream'),
    ]);
    const agentUsages = (stdout: string) =>
      (JSON.parse(stdout).task.history as { role: string; metadata?: Meta }[])
        .filter((message) => message.role === 'ROLE_AGENT')
        .map((message) => message.metadata?.['usage']);
    expect(agentUsages(openrouter!.stdout)).toEqual([
      { prompt_tokens: 200, completion_tokens: 20, total_tokens: 220, cost: 0.0012 },
      { prompt_tokens: 300, completion_tokens: 30, total_tokens: 330, cost: 0.0003 },
    ]);
    // 0.3.14 keeps an update event's metadata off the task: the task the agent holds has its messages' reports only.
    expect(agentUsages(redpanda!.stdout)).toEqual(
      USAGE_CONVENTIONS['redpanda']!.steps.map((step) => ('say' in step ? step.metadata?.['usage'] : undefined)),
    );
    expect(JSON.parse(redpanda!.stdout).task).not.toHaveProperty('metadata');
    expect(jsonLines(streamed!.stdout).at(-1)).toMatchObject({ statusUpdate: { metadata: USAGE_CONVENTIONS['redpanda']!.final } });
    expect(none!.stdout).not.toMatch(/usage/i);
  });
});

describe('a4h send (text): one Usage line when reported', () => {
  it("the record's last field: the turn's total, terse; none reported, no line", async () => {
    const url = agents.v1.url('/');
    const words = ['openrouter', 'priced', 'redpanda', 'message', 'none'];
    const runs = await Promise.all(words.map((word) => send(url, word)));
    const usageLine = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('Usage:'));
    expect(words.map((word, index) => [word, usageLine(runs[index]!.stdout)])).toEqual([
      ['openrouter', ['Usage: 500 in, 50 out, 550 total tokens; cost 0.0015']],
      ['priced', ['Usage: 10 in, 5 out tokens; cost 0.02 EUR']],
      ['redpanda', ['Usage: 1742 in, 105 out, 1847 total tokens']],
      ['message', ['Usage: 8 in, 2 out, 10 total tokens']],
      ['none', []],
    ]);
    // After the ids and state, before the blocks.
    expect(runs[2]!.stdout).toMatch(/State: TASK_STATE_COMPLETED\nUsage: 1742 in/);
  });

  it('--stream: the closing record says the total', async () => {
    const { stdout } = await send(agents.v1.url('/'), 'openrouter', '--stream');
    expect(stdout.trimEnd().split('\n').at(-1)).toBe('Usage: 500 in, 50 out, 550 total tokens; cost 0.0015');
  });
});
