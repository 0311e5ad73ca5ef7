/**
 * `a4h chat`'s `/usage` against the usage fixture agents: the last turn's usage and the chat's sum, as the
 * agent reported them (a cost summed only in one currency), "the agent reported no usage" when no turn did;
 * `/help` lists it, a typo is pointed to it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startUsageAgent, type UsageAgents } from '../../../fixtures/agent-usage.js';
import { runCliWithin } from '../run-cli.js';

const runCli = runCliWithin(30_000);
let agents: UsageAgents;
beforeAll(async () => {
  agents = await startUsageAgent();
});
afterAll(async () => {
  await agents?.close();
});

/** Runs a chat on its own thread with `lines` piped in. */
const chat = (thread: string, lines: string[], url = agents.v1.url('/'), ...flags: string[]) =>
  runCli(['chat', url, '--thread', thread, ...flags], { input: `${lines.join('\n')}\n` });

/** What `/usage` printed, in order: each report's lines. */
const usageLines = (stderr: string) => stderr.split('\n').filter((line) => /^(last turn|this chat|the agent reported no usage)/.test(line));

describe('a4h chat /usage', () => {
  it("the last turn's usage and the chat's sum after each turn; a second currency leaves the sum's cost out; a silent turn says so", async () => {
    const { code, stdout, stderr } = await chat('usage-mixed', ['/usage', 'openrouter', '/usage', 'priced', '/usage', 'none', '/usage']);
    expect(code).toBe(0);
    expect(stdout).toContain('Second part.');
    expect(usageLines(stderr)).toEqual([
      'the agent reported no usage (no turn yet)',
      'last turn: 500 in, 50 out, 550 total tokens; cost 0.0015',
      'this chat: 500 in, 50 out, 550 total tokens; cost 0.0015 (1 of 1 turn reported usage)',
      'last turn: 10 in, 5 out tokens; cost 0.02 EUR',
      'this chat: 510 in, 55 out, 550 total tokens (2 of 2 turns reported usage)',
      'last turn: the agent reported no usage',
      'this chat: 510 in, 55 out, 550 total tokens (2 of 3 turns reported usage)',
    ]);
  });

  it('costs in one currency are summed (to a billionth); every convention the library reads counts', async () => {
    const { stderr } = await chat('usage-sum', ['openrouter', 'openrouter', 'adk', 'message', '/usage']);
    expect(usageLines(stderr)).toEqual([
      'last turn: 8 in, 2 out, 10 total tokens',
      'this chat: 3085 in, 150 out, 3325 total tokens; cost 0.003 (4 of 4 turns reported usage)',
    ]);
  });

  it('an agent that reports nothing: "the agent reported no usage", never zeros', async () => {
    const { stderr } = await chat('usage-none', ['none', 'none', '/usage']);
    expect(usageLines(stderr)).toEqual(['the agent reported no usage']);
    expect(stderr).not.toMatch(/\b0 in\b|tokens/);
  });

  it('v0.3 agent: the same numbers', async () => {
    const { stderr } = await chat('usage-v03', ['redpanda', '/usage'], agents.v03.url('/'));
    expect(usageLines(stderr)).toEqual([
      'last turn: 1742 in, 105 out, 1847 total tokens',
      'this chat: 1742 in, 105 out, 1847 total tokens (1 of 1 turn reported usage)',
    ]);
  });

  it('/help lists /usage; a typo is pointed to it', async () => {
    const { stderr } = await chat('usage-help', ['/help', '/usag']);
    expect(stderr).toMatch(/\/usage {9}the last turn's usage and this chat's sum/);
    expect(stderr).toMatch(/unknown command \/usag.*\/usage/);
  });
});
